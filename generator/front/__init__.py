"""Read and check declarations: the front end of the compiler.

Takes declaration files (JSON, in any of the shapes docs/cli.md lists) and a keyword mode
(`vocabulary`); hands on each tool's `Declaration` (`load`, `shapes`), its analysed schema
graph and what checking found (`schema_graph`, `check`: `Checked` notices and what is not
enforced), or a refusal naming the file and the JSON pointer (`errors`, `refusals`). The
ECMA-262 pattern translator (`patterns`) is here because checking decides whether a
`pattern` is enforced. Imports only `base`.
"""
