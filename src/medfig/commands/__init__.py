"""One module per ``medfig`` sub-command.

Each module defines ``register(sub)``, which adds its parser to the
sub-parsers and sets ``func`` to a function taking the parsed arguments and
returning the exit code. ``medfig.cli`` finds the modules here by name, so
adding a command is adding a file. Heavy imports go inside the command
function so that ``medfig --help`` stays fast.
"""
