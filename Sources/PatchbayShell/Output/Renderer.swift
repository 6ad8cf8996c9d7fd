@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// Turns results and errors into output lines, for people or as JSON (PatchbayHost.docc/ReadingOutput.md).
struct Renderer {
    var options: ShellOptions
    /// How steps' changes are matched by identity, if they are.
    var presenter: ChangePresenter?

    private var style: OutputStyle {
        var style = OutputStyle(options: options)
        style.presenter = presenter
        return style
    }

    /// A command's result; a warning among its lines names the file and line the command came
    /// from, as an error does (`todo.pb:3: warning: ...`).
    func success(_ result: CommandResult, command: String, origin: SourceOrigin = .interactive) -> [OutputLine] {
        if options.json {
            let line: Value = ["ok": true, "command": .string(command), "result": result.report.json]
            return [OutputLine(line.jsonText)]
        }
        let lines = result.report.lines(in: style)
        guard let name = origin.name else { return lines.map { OutputLine($0) } }
        return lines.map { $0.hasPrefix("warning: ") ? OutputLine("\(name):\(origin.line): " + $0) : OutputLine($0) }
    }

    /// Probe and log output, and node failures, as they happened during a command.
    func events(_ events: [GraphEvent]) -> [OutputLine] {
        events.compactMap { event in
            switch event {
            case .probe(let port, let value, let transaction):
                if options.json {
                    let line: Value = ["event": "probe", "port": .string(port), "value": value, "txn": .int(transaction)]
                    return OutputLine(line.jsonText)
                }
                return OutputLine("\(port) = \(style.value(value))  (txn \(transaction))")
            case .log(let node, let value, let transaction):
                if options.json {
                    let line: Value = ["event": "log", "node": .string(node), "value": value, "txn": .int(transaction)]
                    return OutputLine(line.jsonText)
                }
                return OutputLine("\(node): \(style.value(value))")
            case .dispatched(let step):
                if options.json {
                    var line = step.json
                    if case .object(var members) = line {
                        members.updateValue("dispatch", forKey: "event", insertingAt: 0)
                        line = .object(members)
                    }
                    return OutputLine(line.jsonText)
                }
                return OutputLine(step.line(in: style))
            case .routed(let navigation):
                if options.json {
                    var line = navigation.value
                    if case .object(var members) = line {
                        members.updateValue("route", forKey: "event", insertingAt: 0)
                        line = .object(members)
                    }
                    return OutputLine(line.jsonText)
                }
                return OutputLine("router.open \(navigation.url): " + navigation.line)
            case .error(let error):
                if case .runaway = error { return nil }
                if options.json {
                    let line: Value = ["event": "error", "message": .string(error.description)]
                    return OutputLine(line.jsonText)
                }
                return OutputLine(paint("error:", "1;31") + " " + error.description, to: .error)
            }
        }
    }

    /// A command's error; `restored` names the stores whose actions the command made were
    /// taken back (a loop that never settled): a line after the error, or `restored` in the
    /// error's JSON.
    func failure(_ error: ShellError, command: String, origin: SourceOrigin, restored: [String]) -> [OutputLine] {
        if restored.isEmpty { return failure(error, command: command, origin: origin) }
        if options.json {
            return failure(error.adding(json: ["restored": .array(restored.map(Value.string))]), command: command, origin: origin)
        }
        return failure(error, command: command, origin: origin)
            + [OutputLine("the actions the command made were taken back: \(restored.joined(separator: ", ")) "
                          + "\(restored.count == 1 ? "is" : "are") as before it")]
    }

    /// The note that the selected store (`use`) is gone, so none is selected; nothing in JSON.
    func selectionDropped(_ store: String) -> [OutputLine] {
        options.json ? [] : [OutputLine("note: \(store) is gone, so no store is selected now")]
    }

    func failure(_ error: ShellError, command: String, origin: SourceOrigin) -> [OutputLine] {
        let position = TextPosition(offset: error.range.lowerBound, in: command)
        let line = origin.line + position.lineIndex
        if options.json {
            var details: Value = ["message": .string(error.message), "line": .int(line), "column": .int(position.column)]
            if case .object(let extra)? = error.json, case .object(var members) = details {
                for (key, value) in extra { members[key] = value }
                details = .object(members)
            }
            let object: Value = ["ok": false, "command": .string(command), "error": details]
            return [OutputLine(object.jsonText)]
        }
        let prefix = origin.name.map { "\($0):\(line):\(position.column): " } ?? ""
        var text = prefix + paint("error:", "1;31") + " " + error.message
        if !position.lineText.isEmpty || error.range.lowerBound > 0 {
            let shown = Printable.sameWidth(position.lineText)
            let underline = caret(under: error.range, position: position, command: command)
            text += "\n  " + shown + "\n  " + paint(underline, "1;32")
        }
        return [OutputLine(text, to: .error)]
    }

    /// `^~~~` under the error's range on its line; tabs are kept so the caret lines up.
    private func caret(under range: Range<Int>, position: TextPosition, command: String) -> String {
        let lead = position.lineText.prefix(position.column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
        let endPosition = TextPosition(offset: Swift.max(range.lowerBound, range.upperBound - 1), in: command)
        let width = endPosition.lineIndex == position.lineIndex ? Swift.max(1, endPosition.column - position.column + 1) : 1
        return lead + "^" + String(repeating: "~", count: Swift.min(width, 200) - 1)
    }

    private func paint(_ text: String, _ code: String) -> String {
        style.paint(text, code)
    }
}
