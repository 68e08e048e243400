/// A syntax problem in a model file: the parser abandons the entry and resumes at the next one.
struct ModelFileAbandon: Error {}

/// The token cursor the model-file parsers (`.items`, `.things`, `.persist`) share: they read the same tokens
/// (``ItemsFileLexer``) and say "expected …, found …" the same way; each adds its problems to its own list.
protocol ModelTokenParser {
    var lexer: ItemsFileLexer { get set }
    var token: ItemsFileLexer.Token { get set }
    /// Adds a located syntax problem to the parser's list.
    mutating func addSyntax(_ line: Int, _ column: Int, _ message: String, hint: String?)
}

extension ModelTokenParser {
    typealias Abandon = ModelFileAbandon

    mutating func bump() { token = lexer.next() }
    func isPunct(_ p: Unicode.Scalar) -> Bool { token.kind == .punctuation(UInt8(ascii: p)) }
    func isWord(_ w: String) -> Bool { token.kind == .identifier && token.text == w }

    /// The token after the current one, without consuming either.
    func peek() -> ItemsFileLexer.Token {
        var copy = lexer
        return copy.next()
    }

    /// Adds "expected `expected`, found …" at the current token (or the lexer's own problem with it) and abandons.
    mutating func fail(_ expected: String, hint: String? = nil) throws(ModelFileAbandon) -> Never {
        let t = token
        if t.kind == .invalid, let problem = t.problem {
            addSyntax(t.line, t.column, "\(problem): \(ItemsFileIssue.quoted(t.text)); expected \(expected).", hint: hint)
        } else {
            addSyntax(t.line, t.column, "expected \(expected), found \(t.described).", hint: hint)
        }
        throw ModelFileAbandon()
    }

    mutating func expect(_ p: Unicode.Scalar, _ what: String) throws(ModelFileAbandon) {
        guard isPunct(p) else { try fail(what) }
        bump()
    }

    /// An identifier, consumed.
    mutating func identifier(_ what: String) throws(ModelFileAbandon) -> ItemsFileLexer.Token {
        guard token.kind == .identifier else { try fail(what) }
        let t = token
        bump()
        return t
    }
}
