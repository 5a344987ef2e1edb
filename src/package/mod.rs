//! Compiles C sources into the FMU's shared library and writes the archive.
