"""The faces: bots, rendering, the command line and the conformance runner, on top of the library."""
