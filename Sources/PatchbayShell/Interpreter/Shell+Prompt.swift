@_spi(Shell) import PatchbayHistory
@_spi(Shell) import PatchbayGraph
extension Shell {
    /// What the prompt says about the session after the program's name (see `Prompt.primary(program:context:)`):
    /// the store commands use when they leave out STORE (the selected one, or the only one),
    /// with its branch when not `main` (`@b1`) and its place when it is in the past (`#12/40`),
    /// and `*` while a transaction is open. Empty when there is nothing to say: no store is
    /// selected, the only store is at the end of `main`, and no transaction is open.
    public var promptContext: String {
        var context = ""
        // The set the graph keeps up to date: no walk over the nodes at every prompt.
        let stores = graph.storeNameSet
        if let store = selectedStore ?? (stores.count == 1 ? stores.first : nil), let (name, history) = try? histories.history(of: store) {
            var place = history.branch == "main" ? "" : "@" + history.branch
            if history.current < history.count { place += " #\(history.current)/\(history.count)" }
            if selectedStore != nil || !place.isEmpty { context = " " + name + place }
        }
        if graph.engine.isInTransaction { context += "*" }
        return context
    }
}
