
import PatchbayCore
import PatchbayGraph

extension Shell {
    func run(_ command: DataflowCommand, text: String) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        let style = style
        switch command {
        case .variable(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.createVariable(name.text, value: value) }
            return CommandResult(lines: ["\(name.text) = \(style.value(value))"], json: ["node": .string(name.text), "value": value])
        case .derive(let name, let expression):
            try call([name], [], expression.range) { () throws(GraphError) in try graph.createDerived(name.text, expression: expression) }
            let value = readValue(name.text)
            return CommandResult(lines: ["\(name.text) = \(value.map(style.value) ?? "(empty)")"],
                                 json: ["node": .string(name.text), "value": value ?? .null])
        case .knot(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.createKnot(name.text, state: value) }
            return CommandResult(lines: ["\(name.text) = \(style.value(value))"], json: ["node": .string(name.text), "state": value])
        case .signal(let name):
            try call([name], [], whole) { () throws(GraphError) in try graph.createSignal(name.text) }
            return CommandResult(lines: ["\(name.text): signal (send) -> (out)"], json: ["node": .string(name.text)])
        case .send(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.send(name.text, value) }
            return CommandResult()
        case .close(let name):
            try call([name], [], whole) { () throws(GraphError) in try graph.close(name.text) }
            return CommandResult()
        case .set(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.set(name.text, to: value) }
            return CommandResult()
        case .setInput(let target, let expression):
            let value = try evaluate(expression, in: text)
            try call([], [target], whole) { () throws(GraphError) in try graph.setInput(target.address!, to: value) }
            return CommandResult()
        case .touch(let target):
            try call([], [target], whole) { () throws(GraphError) in try graph.touch(target.node.text, port: target.port?.text) }
            return CommandResult()
        case .patch(let name, let type, let arguments):
            var values: [String: Value] = [:]
            for (parameter, expression) in arguments { values[parameter.text] = try evaluate(expression, in: text) }
            let ranges = Dictionary(arguments.map { ($0.0.text, $0.0.range.lowerBound..<$0.1.range.upperBound) }, uniquingKeysWith: { a, _ in a })
            do {
                try graph.createPatch(name.text, type: type.text, arguments: values)
            } catch {
                throw ShellError(.graph(error), at: Self.range(of: error, names: [name], targets: [], typeName: type, parameters: ranges) ?? whole)
            }
            let summary = graph.summaries().first { $0.name == name.text }!
            return CommandResult(lines: ["\(name.text): \(Self.describe(summary, style: style))"], json: Self.json(summary))
        case .patchTypes:
            return patchTypesResult()
        case .patchType(let name, let inputs, let outputs, let eventOutputs, let body):
            try call([name], [], name.range) { () throws(GraphError) in
                try graph.definePatchType(name.text, inputs: inputs.map(\.text), outputs: outputs.map(\.text),
                                          eventOutputs: eventOutputs.map(\.text), body: body)
            }
            let signature = graph.allPatchTypes.first { $0.name == name.text }!.ports
            return CommandResult(lines: ["patch type \(signature)"], json: ["type": .string(name.text)])
        case .wire(let source, let target, let condition, let transform, let isDelay, let future):
            let outcome = try call([], [source, target], source.range.lowerBound..<target.range.upperBound) { () throws(GraphError) in
                try graph.wire(from: source.address!, to: target.address!, when: condition, transform: transform, isDelay: isDelay,
                               future: future)
            }
            let line = outcome.replaced.map { "rewired \(target.text): \($0) replaced by \(outcome.wire)" } ?? "wired \(outcome.wire)"
            return CommandResult(lines: [line], json: ["wire": .string(outcome.wire), "replaced": outcome.replaced.map(Value.string) ?? .null])
        case .unwire(let source, let target):
            let removed = try call([], [source, target].compactMap { $0 }, whole) { () throws(GraphError) in
                try graph.unwire(target.address!, from: source?.address)
            }
            return CommandResult(lines: ["unwired " + (source == nil ? target.text : removed)],
                                 json: ["input": .string(target.text), "wire": .string(removed)])
        case .bind(let first, let second):
            try call([first, second], [], whole) { () throws(GraphError) in try graph.bind(first.text, second.text) }
            return CommandResult()
        case .connector(let action):
            return try connector(action, whole)
        case .unbind(let first, let second):
            let ended = try call([first, second], [], whole) { () throws(GraphError) in try graph.unbind(first.text, second.text) }
            return CommandResult(lines: ended.map { "unbound \($0)" }, json: ["bindings": .array(ended.map(Value.string))])
        case .pipe(let source, let knot, let condition, let body):
            try call([knot], [source], whole) { () throws(GraphError) in
                try graph.pipe(from: source.address!, to: knot.text, when: condition, body: body)
            }
            return CommandResult()
        case .probe(let target, let future):
            let ports = try call([], [target], whole) { () throws(GraphError) in
                try graph.probe(target.node.text, port: target.port?.text, future: future)
            }
            return CommandResult(json: ["probes": .array(ports.map { .string($0.description) })])
        case .unprobe(let target):
            guard let target else {
                let count = graph.unprobeAll()
                return CommandResult(json: ["removed": .int(count)])
            }
            try call([], [target], whole) { () throws(GraphError) in try graph.unprobe(target.text) }
            return CommandResult(json: ["removed": 1])
        case .begin:
            try call([], [], whole) { () throws(GraphError) in try graph.begin() }
            let depth = graph.engine.transactionDepth
            return CommandResult(lines: depth > 1 ? ["begin (nested, depth \(depth))"] : [], json: ["depth": .int(depth)])
        case .commit:
            let applied = try call([], [], whole) { () throws(GraphError) in try graph.commit() }
            let depth = graph.engine.transactionDepth
            let json: Value = ["applied": .bool(applied), "depth": .int(depth), "txn": .int(graph.engine.transactionID)]
            return CommandResult(lines: applied ? [] : ["commit (still inside a transaction, depth \(depth))"], json: json)
        case .abort:
            try call([], [], whole) { () throws(GraphError) in try graph.abort() }
            return CommandResult(lines: ["aborted: the transaction's writes are dropped"])
        case .tick(let milliseconds):
            let now = try call([], [], whole) { () throws(GraphError) in try graph.tick(by: milliseconds) }
            return CommandResult(lines: ["clock \(now) ms"], json: ["now": .int(now)])
        case .clock:
            let clock = graph.engine.clock
            let pending = clock.pendingCount == 0 ? "no timers pending"
                : "\(clock.pendingCount) timer\(clock.pendingCount == 1 ? "" : "s") pending, next at \(clock.nextDue!) ms"
            return CommandResult(lines: ["clock \(clock.now) ms, \(pending)"],
                                 json: ["now": .int(clock.now), "pending": .int(clock.pendingCount),
                                        "next": clock.nextDue.map(Value.int) ?? .null])
        case .tap(let view, let x, let y):
            let taps = try call([view], [], whole) { () throws(GraphError) in try graph.tap(view.text, x: x, y: y) }
            let line = taps.isEmpty ? "tap at \(x),\(y) missed \(view.text) (or no tap patch is wired to it)"
                : "tap at \(x),\(y) fired \(taps.joined(separator: ", "))"
            return CommandResult(lines: [line], json: ["fired": .array(taps.map(Value.string))])
        case .nodes:
            let summaries = graph.summaries()
            let width = summaries.map(\.name.count).max() ?? 0
            let lines = summaries.isEmpty ? ["no nodes yet (create one with var, derive, signal, knot or patch)"]
                : summaries.map { "\($0.name.padding(to: width))  \(Self.describe($0, style: style))" }
            return CommandResult(lines: lines, json: .array(summaries.map(Self.json)))
        case .show(let target):
            let reports: [PortReport] = try call([], [target], whole) { () throws(GraphError) in
                if let address = target.address { return [try graph.show(address)] }
                return try graph.show(target.node.text)
            }
            return CommandResult(lines: reports.flatMap { Self.describe($0, style: style) }, json: .array(reports.map(Self.json)))
        case .remove(let name):
            try call([name], [], whole) { () throws(GraphError) in try graph.remove(name.text) }
            return CommandResult(lines: ["removed \(name.text)"], json: ["removed": .string(name.text)])
        case .graph(let dot, let file, let force):
            return try graphResult(dot: dot, file: file, force: force)
        case .render:
            let lines = graph.render()
            return CommandResult(lines: lines.isEmpty ? ["nothing to render (no view patches)"] : lines,
                                 json: .array(lines.map(Value.string)))
        case .why(let target):
            let chain = try call([], [target], whole) { () throws(GraphError) in
                try graph.why(target.node.text, port: target.port?.text)
            }
            return CommandResult(lines: [chain.isEmpty ? "\(target.text) has no value yet" : chain.joined(separator: " → ")],
                                 json: .array(chain.map(Value.string)))
        }
    }

    /// Evaluates a command's expression against the graph's nodes.
    func evaluate(_ expression: Expression, in text: String) throws(ShellError) -> Value {
        do {
            return try expression.evaluate(Bindings(), in: graph)
        } catch {
            throw ShellError(error, in: text)
        }
    }

    private func readValue(_ name: String) -> Value? {
        if case .value(let value) = graph.lookup(name: name) { return value }
        return nil
    }

    /// Runs a graph method, pointing its error at the name or port it is about.
    @discardableResult
    func call<T>(_ names: [Name], _ targets: [Target], _ fallback: Range<Int>,
                 _ body: () throws(GraphError) -> T) throws(ShellError) -> T {
        do {
            return try body()
        } catch {
            throw ShellError(.graph(error), at: Self.range(of: error, names: names, targets: targets) ?? fallback)
        }
    }

    private func connector(_ action: ConnectorAction, _ whole: Range<Int>) throws(ShellError) -> CommandResult {
        switch action {
        case .open(let name):
            try call([name], [], name.range) { () throws(GraphError) in try graph.openConnector(name.text) }
            return CommandResult(lines: ["connector \(name.text) open: wires and probes made now join it until 'connector end'"],
                                 json: ["connector": .string(name.text), "open": true])
        case .end:
            let name = try call([], [], whole) { () throws(GraphError) in try graph.endConnector() }
            return CommandResult(lines: ["connector \(name) closed"], json: ["connector": .string(name), "open": false])
        case .list:
            let summaries = graph.connectorSummaries
            var lines: [String] = []
            for summary in summaries {
                lines.append(summary.name + (summary.isOpen ? "  (open)" : ""))
                lines += summary.wires.map { "  wire \($0)" } + summary.probes.map { "  probe \($0)" }
            }
            return CommandResult(lines: lines, json: .array(summaries.map(Self.json)))
        case .add(let name, let wires):
            let added = try call([name], wires.flatMap { [$0.source, $0.target].compactMap { $0 } }, whole) { () throws(GraphError) in
                try graph.addToConnector(name.text, wires: wires.map { ($0.source?.address, $0.target.address!) })
            }
            return CommandResult(lines: added.map { "connector \(name.text): wire \($0)" },
                                 json: ["connector": .string(name.text), "wires": .array(added.map(Value.string))])
        case .disconnect(let name):
            let ended = try call([name], [], name.range) { () throws(GraphError) in try graph.disconnectConnector(name.text) }
            let count = ended.wires.count + ended.probes.count
            return CommandResult(lines: ["connector \(name.text) disconnected: \(ended.wires.count) wire\(ended.wires.count == 1 ? "" : "s"), "
                                         + "\(ended.probes.count) probe\(ended.probes.count == 1 ? "" : "s")" + (count == 0 ? " (nothing left to end)" : "")],
                                 json: Self.json(ended))
        }
    }

    private static func json(_ summary: Graph.ConnectorSummary) -> Value {
        ["connector": .string(summary.name), "wires": .array(summary.wires.map(Value.string)),
         "probes": .array(summary.probes.map(Value.string)), "open": .bool(summary.isOpen)]
    }

    static func range(of error: GraphError, names: [Name], targets: [Target], typeName: Name? = nil,
                      parameters: [String: Range<Int>] = [:]) -> Range<Int>? {
        switch error {
        case .unknownNode(let node, _), .wrongKind(let node, _, _), .signalClosed(let node), .nameTaken(let node, _),
            .reservedName(let node), .unknownProbe(let node), .bindToItself(let node), .unknownReducer(let node, _),
            .invalidReducerID(let node), .reducerExists(let node), .unknownMiddleware(let node, _),
            .invalidMiddlewareID(let node), .middlewareExists(let node),
            .notBound(let node, _, _), .unknownConnector(let node, _), .connectorOpen(let node):
            return names.first { $0.text == node }?.range
                ?? targets.first { $0.node.text == node || $0.text == node }?.node.range
        case .unknownPort(let address, _, _), .inputIsWired(let address, _), .notWired(let address), .severalWires(let address, _):
            let target = targets.last { $0.address == address }
            return target?.port?.range ?? target?.range
        case .noSuchWire(let source, let address, _):
            // From the source to the input: the pair names the wire.
            guard let from = targets.first(where: { $0.address == source }), let to = targets.last(where: { $0.address == address }) else {
                return nil
            }
            return from.range.lowerBound..<to.range.upperBound
        case .unknownPatchType, .patchTypeTaken:
            return typeName?.range ?? names.first?.range
        case .patchType(_, let problem):
            switch problem {
            case .unknownParameter(let name, _), .invalidParameter(let name, _), .code(let name, _, _):
                return parameters[name] ?? typeName?.range
            case .missingParameter:
                return typeName?.range
            }
        case .cycle:
            return targets.count == 2 ? targets[0].range.lowerBound..<targets[1].range.upperBound : nil
        case .reducerFailed(let store, _, _, _, _), .hostedReducer(let store), .hostedMiddleware(let store),
            .middlewareFailed(let store, _, _, _):
            return names.first { $0.text == store }?.range
        case .unknownRoute(let pattern, _), .ambiguousRouteRemoval(let pattern, _), .unknownRouteRegistration(let pattern, _, _):
            return names.first { $0.text == pattern }?.range
        case .engine, .expression, .inTransaction, .noStore, .ambiguousStore, .invalidAction, .routing, .emptyStack, .noModal,
            .invalidDelay, .transactionLeftOpen, .actionDecoding, .hostedState, .unknownPresenter, .invalidRouteRequest, .featureOpen,
            .noOpenFeature, .unknownFeature, .noOpenConnector:
            return nil
        }
    }
}
