@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// `export swift-test FILE [STORE] --reducer EXPR [--from N] [--to N] [--module NAME]
    /// [--force]`: writes the steps of a hosted store's history as a Swift Testing test of the
    /// app's reducer (see `SwiftTestWriter`). Skipped and failed steps are left out: they
    /// changed nothing.
    func exportSwiftTest(_ export: SwiftTestExport, command text: String) throws(ShellError) -> CommandResult {
        let path = try writablePath(export.path, at: export.range)
        let storeName = try swiftTestStore(export)
        let (name, history) = try travel(export.store, export.store?.range ?? export.range) { () throws(TimeTravelError) in
            try histories.history(of: storeName)
        }
        let from = export.from?.index ?? 0, to = export.to?.index ?? history.count
        for (index, range) in [export.from, export.to].compactMap(\.self) where index > history.count {
            throw CommandParser.usage("export", "\(name) has \(counted(history.count, "action")), so there is no step #\(index)", at: range)
        }
        var start: Value = .null
        var steps: [SwiftTestRequest.Step] = []
        var leftOut = 0
        try history.walk { (index, entry, state) throws(ShellError) in
            if index % 1_024 == 0 {
                try checkInterruption()
                showProgress("export swift-test", index, of: to, "steps")
            }
            if index == from { start = state }
            if index > from, let entry {
                if entry.skipped || entry.failure != nil {
                    leftOut += 1
                } else {
                    steps.append(SwiftTestRequest.Step(index: index, action: entry.action, changes: entry.changes, state: state))
                }
            }
            return index < to
        }
        let request = SwiftTestRequest(store: name, function: Self.testFunctionName(path), reducer: export.reducer ?? "",
                                       module: export.module, command: text, startIndex: from, startState: start, steps: steps)
        let test: SwiftTest
        do throws(SwiftExportError) { test = try graph.swiftTest(name, request) } catch {
            throw ShellError(.session(path: "export swift-test", detail: error.message), at: export.store?.range ?? export.range)
        }
        try writeWhole(test.text, to: path, replacing: export.force, at: export.range)
        return CommandResult(SwiftTestExported(store: name, path: path, from: from, to: to, actions: steps.count, leftOut: leftOut,
                                               checks: test.checks))
    }

    /// The store a Swift test is written for: the one named, or the only app's store.
    private func swiftTestStore(_ export: SwiftTestExport) throws(ShellError) -> String {
        if let store = export.store { return store.text }
        let hosted = graph.hostedStoreNames
        guard hosted.count == 1 else {
            let detail = hosted.isEmpty
                ? "no store of this shell is an app's: a Swift test sends actions through an app's reducer (host the app's stores "
                    + "with Patchbay.main(hosting:))"
                : "several stores are the app's (\(Spelling.list(hosted))): name the one to export"
            throw ShellError(.session(path: "export swift-test", detail: detail), at: export.range)
        }
        return hosted[0]
    }

    /// The test function's name, from the file's: `TodosAsRecorded.swift` gives `todosAsRecorded`.
    static func testFunctionName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let base = file.hasSuffix(".swift") ? String(file.dropLast(6)) : file
        var name = String(base.unicodeScalars.filter { $0.properties.isXIDContinue }.map(Character.init))
        if let first = name.first { name = first.lowercased() + name.dropFirst() }
        guard let first = name.unicodeScalars.first, first.properties.isXIDStart else { return "recorded" + name.capitalizedFirst }
        return name
    }
}

extension String {
    fileprivate var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
