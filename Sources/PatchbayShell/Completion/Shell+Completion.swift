@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// The candidates for Tab at UTF-8 offset `cursor` of `line`.
    public func complete(_ line: String, cursor: Int) -> Completion {
        let context = CompletionContext(
            nodeNames: graph.nodeNames, ports: graph.portAddresses.map(\.description),
            patchTypes: graph.patchTypeNames, probeTargets: graph.probeTargets, storeNames: graph.storeNames, selectedStore: selectedStore,
            storeStates: Dictionary(uniqueKeysWithValues: graph.storeNames.compactMap { name in (try? graph.storeState(name)).map { (name, $0) } }),
            actionTypes: graph.actionTypes(),
            actionTypesByStore: Dictionary(uniqueKeysWithValues: graph.storeNames.map { ($0, graph.actionTypes(of: $0)) }),
            reducerIDs: ((try? graph.reducerSummaries()) ?? []).map(\.id),
            middlewareIDs: ((try? graph.middlewareSummaries()) ?? []).map(\.id),
            routePatterns: graph.routePatterns, viewNames: graph.viewNames, presenterIDs: graph.presenterIDs,
            featureNames: graph.featureNames,
            branchNames: graph.storeNames.flatMap { store in ((try? histories.history(of: store))?.history.branches ?? []).map(\.name) },
            connectorNames: graph.connectorSummaries.map(\.name))
        return Completer(fileNames: fileNames, context: context).complete(line, cursor: cursor)
    }
}
