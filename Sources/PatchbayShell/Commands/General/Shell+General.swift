@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

extension Shell {
    /// Runs a general command: an expression, help, a script, a setting, the session's reset or end.
    func run(
        _ command: GeneralCommand, text: String, origin: SourceOrigin, output: inout [OutputLine]
    ) throws(ShellError) -> CommandResult {
        switch command {
        case .evaluate(let expression):
            return .value(try evaluate(expression, in: text))
        case .help(let topic, let subcommand, let range):
            return try Help.result(for: topic, subcommand: subcommand.map { ($0.text, $0.range) }, at: range)
        case .apropos(let word):
            return Help.apropos(word.text)
        case .helpPatchType(let name):
            guard let type = graph.allPatchTypes.first(where: { $0.name == name.text }) else {
                throw ShellError(.graph(.unknownPatchType(name.text, suggestion: Spelling.closest(to: name.text, among: graph.patchTypeNames))),
                                 at: name.range)
            }
            return Help.result(for: type)
        case .load(let path, let range):
            return try load(readablePath(path, from: origin, at: range), range: range, output: &output)
        case .save(let path, let range, let force):
            return try save(to: path, force: force, range: range)
        case .reset:
            startOver()
            return CommandResult(SessionReset(hasHostedStores: !hostedStores.isEmpty))
        case .setting(let name, let value):
            return try setting(name, value)
        case .quit:
            hasQuit = true
            return .nothing
        }
    }

    /// `load FILE`: runs the file's commands, printing what they print, and stops at the first error.
    private func load(_ path: String, range: Range<Int>, output: inout [OutputLine]) throws(ShellError) -> CommandResult {
        guard nestingDepth < InputLimits.maxLoadDepth else {
            throw ShellError(.loadTooDeep(limit: InputLimits.maxLoadDepth), at: range)
        }
        let lines = try ScriptFile.lines(path, at: range)
        nestingDepth += 1
        defer { nestingDepth -= 1 }
        var nested: [OutputLine] = []
        var runner = ScriptRunner(shell: self, name: path, keepGoing: false) { nested.append($0) }
        running.hasStartedInnerCommands = true
        reading([path]) { runner.run(lines) }
        output += nested
        if let failure = lines.failure { throw ShellError(.file(path: path, detail: failure), at: range) }
        guard runner.failures == 0 else {
            throw ShellError(.loadStopped(path: path), at: range)
        }
        return CommandResult(ScriptLoaded(path: path, commands: runner.commandCount))
    }
}
