import Testing

/// All JavaScript tests, one at a time: some name a different `node` through the environment, and the
/// left-over check counts this process's node children.
@Suite(.serialized) enum JavaScriptSuite {}
