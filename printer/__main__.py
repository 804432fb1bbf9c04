from printer.cli import run

run()
