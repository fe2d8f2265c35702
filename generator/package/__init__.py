"""Build a package incrementally: decide what to render, render it, write only what changed.

Takes the declarations folder, the output folder and a keyword mode (a `Target`, `command`);
hands on the package on disk, or the diff `--check` prints. `build` runs the stages of
`front`, `ir`, `plan` and `emit` for each tool that needs it (pass 1 reads and checks, pass 2
renders and formats), reusing files whose headers prove them current; `verified` keeps the
record that lets a run skip files it has verified; `write` stages and commits the files
atomically; `overlap` starts a renderer process while pass 1 scans. Imports every stage
before it, never `readers` or `cli`.
"""
