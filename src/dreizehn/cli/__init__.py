"""The ``dreizehn`` command line."""
