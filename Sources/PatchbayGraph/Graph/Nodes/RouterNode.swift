@_spi(Shell) import PatchbayCore

/// The wireframe's node, `router`: every URL routed is sent on the event port `route`
/// (`{url, pattern, params, view, option}`), so routes can be wired into stores and patches; a
/// URL or `{url, option, ...params}` arriving on the input `open` is routed as `route URL` routes
/// it, after the transaction that delivered it (never nested), so that the graph can navigate.
/// The event port `feature` announces the features added, changed and removed.
final class RouterNode: GraphNode {
    static let name = "router"
    private(set) var route: OutputPort<Value>!
    private(set) var open: InputPort!
    /// Announces features added, changed and removed (`{feature, event, items}`).
    private(set) var feature: OutputPort<Value>!

    init(graph: Graph) {
        super.init(graph: graph, name: Self.name, kind: .router)
        route = addOutput("route", remembers: false)
        feature = addOutput("feature", remembers: false)
        open = addInput("open")
        open.isQueued = true
        open.acceptsManyWires = true
    }

    override func inputDidArrive(_ input: InputPort, _ delivery: Delivery) {
        input.consumeArrival()
        guard let value = input.value else { return }
        let wire = input.arrivingWire?.text
        engine.enqueue("router.open") { [unowned self] in
            graph.open(value, via: wire)
        }
    }
}
