from printer.cli import main

main()
