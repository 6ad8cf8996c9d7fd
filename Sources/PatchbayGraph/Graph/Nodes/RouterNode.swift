import PatchbayCore

/// The wireframe's node, `router`: every `route URL` sends its result on the event port `route`
/// (`{url, pattern, params, view, option}`), so routes can be wired into stores and patches.
final class RouterNode: GraphNode {
    static let name = "router"
    private(set) var route: OutputPort<Value>!

    init(graph: Graph) {
        super.init(graph: graph, name: Self.name, kind: .router)
        route = addOutput("route", remembers: false)
    }
}
