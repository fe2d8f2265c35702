"""Tools that read a generated package or a declaration, apart from the build stages:
`explain` (what a tool's validator checks), `audit` (replay recorded calls), and `package`
(import a generated package from its folder, for `validate` and `audit`)."""
