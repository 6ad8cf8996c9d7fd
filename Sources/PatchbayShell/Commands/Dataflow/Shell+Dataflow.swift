
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayHistory

extension Shell {
    func run(_ command: DataflowCommand, text: String) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        switch command {
        case .variable(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.createVariable(name.text, value: value) }
            return CommandResult(NodeMade(name: name.text, value: value))
        case .derive(let name, let expression):
            try call([name], [], expression.range, reading: { expression.rangeOfFirstRead(of: $0) }) { () throws(GraphError) in
                try graph.createDerived(name.text, expression: expression)
            }
            return CommandResult(NodeMade(name: name.text, value: readValue(name.text)))
        case .knot(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.createKnot(name.text, state: value) }
            return CommandResult(NodeMade(name: name.text, value: value, isKnot: true))
        case .signal(let name):
            try call([name], [], whole) { () throws(GraphError) in try graph.createSignal(name.text) }
            return CommandResult(SignalMade(name: name.text))
        case .send(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.send(name.text, value) }
            return .nothing
        case .close(let name):
            try call([name], [], whole) { () throws(GraphError) in try graph.close(name.text) }
            return .nothing
        case .set(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.set(name.text, to: value) }
            return .nothing
        case .setInput(let target, let expression):
            let value = try evaluate(expression, in: text)
            try call([], [target], whole) { () throws(GraphError) in try graph.setInput(target.address!, to: value) }
            return .nothing
        case .touch(let target):
            try call([], [target], whole) { () throws(GraphError) in try graph.touch(target.node.text, port: target.port?.text) }
            return .nothing
        case .patch(let name, let type, let arguments):
            var values: [String: Value] = [:]
            for (parameter, expression) in arguments { values[parameter.text] = try evaluate(expression, in: text) }
            let ranges = Dictionary(arguments.map { ($0.0.text, $0.0.range.lowerBound..<$0.1.range.upperBound) }, uniquingKeysWith: { a, _ in a })
            do {
                try graph.createPatch(name.text, type: type.text, arguments: values)
            } catch {
                throw ShellError(.graph(error), at: Self.range(of: error, names: [name], targets: [], typeName: type, parameters: ranges) ?? whole)
            }
            return CommandResult(PatchMade(summary: graph.summaries().first { $0.name == name.text }!))
        case .patchTypes:
            return CommandResult(PatchTypeListing(types: graph.allPatchTypes))
        case .patchType(let name, let inputs, let outputs, let eventOutputs, let body):
            do {
                try graph.definePatchType(name.text, inputs: inputs.map(\.text), outputs: outputs.map(\.text),
                                          eventOutputs: eventOutputs.map(\.text), body: body)
            } catch {
                var range = Self.range(of: error, names: [name], targets: [])
                // The second port of the name.
                if case .portNameTaken(_, let port) = error { range = (inputs + outputs).filter { $0.text == port }.dropFirst().first?.range }
                throw ShellError(.graph(error), at: range ?? name.range)
            }
            return CommandResult(PatchTypeDefined(type: graph.allPatchTypes.first { $0.name == name.text }!))
        case .wire(let source, let target, let condition, let transform, let isDelay, let future):
            let outcome = try call([], [source, target], source.range.lowerBound..<target.range.upperBound, reading: {
                condition?.rangeOfFirstRead(of: $0) ?? transform?.rangeOfFirstRead(of: $0)
            }) { () throws(GraphError) in
                try graph.wire(from: source.address!, to: target.address!, when: condition, transform: transform, isDelay: isDelay,
                               future: future)
            }
            return CommandResult(WireMade(target: target.text, wire: outcome.wire, replaced: outcome.replaced))
        case .unwire(let source, let target):
            let removed = try call([], [source, target].compactMap { $0 }, whole) { () throws(GraphError) in
                try graph.unwire(target.address!, from: source?.address)
            }
            return CommandResult(WireRemoved(input: target.text, wire: removed, namedSource: source != nil))
        case .bind(let first, let second):
            try call([first, second], [], whole) { () throws(GraphError) in try graph.bind(first.text, second.text) }
            return .nothing
        case .connector(let action):
            return try connector(action, whole)
        case .unbind(let first, let second):
            let ended = try call([first, second], [], whole) { () throws(GraphError) in try graph.unbind(first.text, second.text) }
            return CommandResult(BindingsEnded(bindings: ended))
        case .pipe(let source, let knot, let condition, let body):
            try call([knot], [source], whole, reading: { condition?.rangeOfFirstRead(of: $0) ?? body.rangeOfFirstRead(of: $0) }) {
                () throws(GraphError) in
                try graph.pipe(from: source.address!, to: knot.text, when: condition, body: body)
            }
            return .nothing
        case .probe(let target, let future):
            let ports = try call([], [target], whole) { () throws(GraphError) in
                try graph.probe(target.node.text, port: target.port?.text, future: future)
            }
            return CommandResult(ProbesAdded(ports: ports))
        case .unprobe(let target):
            guard let target else { return CommandResult(ProbesRemoved(count: graph.unprobeAll())) }
            try call([], [target], whole) { () throws(GraphError) in try graph.unprobe(target.text) }
            return CommandResult(ProbesRemoved(count: 1))
        case .begin:
            try call([], [], whole) { () throws(GraphError) in try graph.begin() }
            return CommandResult(TransactionBegun(depth: graph.engine.transactionDepth))
        case .commit:
            let applied = try call([], [], whole) { () throws(GraphError) in try graph.commit() }
            return CommandResult(TransactionCommitted(applied: applied, depth: graph.engine.transactionDepth,
                                                      transaction: graph.engine.transactionID))
        case .abort:
            try call([], [], whole) { () throws(GraphError) in try graph.abort() }
            return CommandResult(TransactionAborted())
        case .tick(let milliseconds):
            let now = try call([], [], whole) { () throws(GraphError) in try graph.tick(by: milliseconds) }
            return CommandResult(ClockReading(now: now))
        case .clock:
            let clock = graph.engine.clock
            return CommandResult(ClockReading(now: clock.now, timers: .init(count: clock.pendingCount, nextDue: clock.nextDue)))
        case .tap(let view, let x, let y):
            let taps = try call([view], [], whole) { () throws(GraphError) in try graph.tap(view.text, x: x, y: y) }
            return CommandResult(TapFired(view: view.text, x: x, y: y, fired: taps))
        case .nodes:
            return CommandResult(NodeListing(nodes: graph.summaries()))
        case .show(let target):
            let reports: [PortReport] = try call([], [target], whole) { () throws(GraphError) in
                if let address = target.address { return [try graph.show(address)] }
                return try graph.show(target.node.text)
            }
            // A hosted store's ports look like any store's: what runs behind them is said first.
            let note = target.address == nil ? graph.hostedMiddlewareCount(of: target.node.text).map { count in
                "\(target.node.text) is hosted: its reducer is the app's Swift code"
                    + (count == 0 ? "" : ", after \(count) middleware of the app")
            } : nil
            return CommandResult(PortListing(ports: reports, note: note))
        case .showStep(let store, let index, let range):
            let step = try travel(store, range) { () throws(TimeTravelError) in
                let (name, history) = try histories.history(of: store.text)
                do throws(HistoryError) { return try history.entry(index) } catch { throw .history(store: name, error) }
            }
            return CommandResult(StepShown(step: step))
        case .remove(let name):
            try call([name], [], whole) { () throws(GraphError) in try graph.remove(name.text) }
            return CommandResult(NodeRemoved(name: name.text))
        case .graph(let dot, let file, let force):
            guard dot else { return CommandResult(GraphDrawing(nodes: graph.summaries(), edges: graph.edges())) }
            let text = graph.dot()
            guard let file else { return CommandResult(GraphDot(text: text)) }
            let path = try writablePath(file.text, at: file.range)
            try writeWhole(text + "\n", to: path, replacing: force, at: file.range)
            return CommandResult(GraphDotWritten(path: path))
        case .render:
            return CommandResult(ViewRendering(rows: graph.render(), hasViews: graph.summaries().contains { $0.kind == .patch(type: "view") }))
        case .why(let target):
            let chain = try call([], [target], whole) { () throws(GraphError) in
                try graph.why(target.node.text, port: target.port?.text)
            }
            return CommandResult(CauseChain(target: target.text, causes: chain))
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
    /// Runs `body`, giving an error it throws the range of what it is about: one of `names` or
    /// `targets`, or where the command's code reads the node (`reading`), or else `fallback`.
    func call<T>(_ names: [Name], _ targets: [Target], _ fallback: Range<Int>, reading: (String) -> Range<Int>? = { _ in nil },
                 _ body: () throws(GraphError) -> T) throws(ShellError) -> T {
        do {
            return try body()
        } catch {
            var range = Self.range(of: error, names: names, targets: targets)
            if range == nil, case .unknownNode(let node, _) = error { range = reading(node) }
            throw ShellError(.graph(error), at: range ?? fallback)
        }
    }

    private func connector(_ action: ConnectorAction, _ whole: Range<Int>) throws(ShellError) -> CommandResult {
        switch action {
        case .open(let name):
            try call([name], [], name.range) { () throws(GraphError) in try graph.openConnector(name.text) }
            return CommandResult(ConnectorSwitched(name: name.text, isOpen: true))
        case .end:
            let name = try call([], [], whole) { () throws(GraphError) in try graph.endConnector() }
            return CommandResult(ConnectorSwitched(name: name, isOpen: false))
        case .list:
            return CommandResult(ConnectorListing(connectors: graph.connectorSummaries))
        case .add(let name, let wires):
            let added = try call([name], wires.flatMap { [$0.source, $0.target].compactMap { $0 } }, whole) { () throws(GraphError) in
                try graph.addToConnector(name.text, wires: wires.map { ($0.source?.address, $0.target.address!) })
            }
            return CommandResult(ConnectorWiresAdded(name: name.text, wires: added))
        case .disconnect(let name):
            let ended = try call([name], [], name.range) { () throws(GraphError) in try graph.disconnectConnector(name.text) }
            return CommandResult(ConnectorDisconnected(ended: ended))
        }
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
        case .engine, .expression, .portNameTaken, .inTransaction, .noStore, .ambiguousStore, .invalidAction, .routing, .emptyStack, .noModal,
            .invalidDelay, .transactionLeftOpen, .actionDecoding, .hostedState, .unknownPresenter, .invalidRouteRequest, .featureOpen,
            .noOpenFeature, .unknownFeature, .noOpenConnector:
            return nil
        }
    }
}
