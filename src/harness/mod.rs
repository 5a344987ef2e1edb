//! Loads an FMU back through its shared library and simulates it.
