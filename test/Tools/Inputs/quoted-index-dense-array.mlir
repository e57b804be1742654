// Only in a comment, array<index: 1>, and a string: parsed as usual.
func.func @f() attributes {note = "array<index: 1> \" array<index>", sizes = array<i64: 256>} {
  return
}
