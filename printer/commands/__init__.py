"""The CLI's commands, one module each; :mod:`printer.cli` registers them."""
