// A dense array of index: MLIR 22's parser dereferences null on it (parseDenseArrayAttr), so the
// tools report it before parsing. The mentions in this comment, array<index>, and in the string
// below are not the construct.
func.func @f() attributes {note = "array<index: 1>", sizes = array< // the lexer skips this
    index: 256>} {
  return
}
