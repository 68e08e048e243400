/// One versioned step of a database schema: the SQL that takes a database from
/// `version − 1` to `version`, recorded in `PRAGMA user_version`.
struct Migration: Sendable, Hashable {
    /// The schema version after this step (the first migration is version 1).
    let version: Int
    /// What the step does, in a few words, for error messages.
    let name: String
    /// The SQL statements of the step, run in order in one transaction (fixed text, no user input).
    let statements: [String]

    /// Creates a migration step.
    init(version: Int, name: String, statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
