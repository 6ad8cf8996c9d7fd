@_spi(Shell) import PatchbayCore

/// A feature (VISPER's App, Feature and FeatureObserver): the definitions made between
/// `feature NAME begin` and `feature end` (nodes such as patches, wires, reducers, route
/// registrations and presenters), which `feature rm NAME` removes as a unit.
final class Feature {
    let name: String
    /// What it defined, in the order it was defined.
    fileprivate(set) var items: [FeatureItem] = []

    init(name: String) {
        self.name = name
    }
}

/// One definition a feature made.
enum FeatureItem {
    case node(GraphNode)
    case wire(Wire)
    case reducer(id: String, store: String)
    case route(pattern: String, RouteRegistration)
    case presenter(id: String, view: String)

    /// The object or id that identifies it.
    var key: FeatureKey {
        switch self {
        case .node(let node): .object(ObjectIdentifier(node))
        case .wire(let wire): .object(ObjectIdentifier(wire))
        case .route(_, let registration): .object(ObjectIdentifier(registration))
        case .reducer(let id, _), .presenter(let id, _): .id(id)
        }
    }

    var description: String {
        switch self {
        case .node(let node):
            if case .patch(let type) = node.kind { "patch \(node.name) (\(type))" } else { "\(node.kind) \(node.name)" }
        case .wire(let wire): "wire \(wire.text)"
        case .reducer(let id, let store): "reducer \(id) (\(store))"
        case .route(let pattern, let registration): "route \(pattern) \(registration.selector)"
        case .presenter(let id, let view): "presenter \(id) (\(view))"
        }
    }
}

enum FeatureKey: Hashable {
    case object(ObjectIdentifier)
    case id(String)
}

/// A feature as `feature list` and `feature show` give it.
@_spi(Shell)
public struct FeatureSummary: Sendable, Equatable {
    public var name: String
    /// Whether `feature end` has yet to close it.
    public var isOpen: Bool
    /// What it defines that is still there, as `route /chat view=Chat`, `patch card`, ...
    public var items: [String]
}

extension Graph {
    /// `feature NAME begin`: what the following commands define belongs to the feature until
    /// `feature end`. Beginning a feature that exists adds to it.
    /// - Returns: whether the feature is new.
    @discardableResult
    public func beginFeature(_ name: String) throws(GraphError) -> Bool {
        if let open = openFeature { throw .featureOpen(open.name) }
        if let feature = features[name] {
            openFeature = feature
            return false
        }
        let feature = Feature(name: name)
        features[name] = feature
        openFeature = feature
        return true
    }

    /// `feature end`: closes the open feature and announces it on `router.feature`
    /// (`{feature, event: "added", items}`) the first time it closes, `"changed"` after.
    @discardableResult
    public func endFeature() throws(GraphError) -> FeatureSummary {
        guard let feature = openFeature else { throw .noOpenFeature }
        openFeature = nil
        let summary = self.summary(of: feature)
        let event = announcedFeatures.insert(feature.name).inserted ? "added" : "changed"
        announceFeature(["feature": .string(feature.name), "event": .string(event), "items": .array(summary.items.map(Value.string))])
        return summary
    }

    /// `feature rm NAME`: removes everything the feature defined that is still there (wires,
    /// reducers, presenters, route registrations, then nodes with what is wired to them), and
    /// the feature; announces it on `router.feature` (`{feature, event: "removed", items}`).
    /// - Returns: what was removed.
    @discardableResult
    public func removeFeature(_ name: String) throws(GraphError) -> [String] {
        guard let feature = features[name] else { throw .unknownFeature(name, existing: Array(features.keys)) }
        if openFeature === feature { throw .featureOpen(name) }
        guard !engine.isInTransaction else { throw .inTransaction("feature rm") }
        let present = feature.items.filter(isPresent)
        let order: (FeatureItem) -> Int = { item in
            switch item {
            case .wire: 0
            case .reducer: 1
            case .presenter: 2
            case .route: 3
            case .node: 4
            }
        }
        for item in present.sorted(by: { order($0) < order($1) }) where isPresent(item) {
            switch item {
            case .wire(let wire): removeWire(wire)
            case .reducer(let id, _): try removeReducer(id)
            case .presenter(let id, _): try removePresenter(id)
            case .route(let pattern, let registration): try removeRoute(pattern, registration: registration)
            case .node(let node): try remove(node.name)
            }
        }
        features[name] = nil
        announcedFeatures.remove(name)
        for item in feature.items { featureOf[item.key] = nil }
        let removed = present.map(\.description)
        announceFeature(["feature": .string(name), "event": "removed", "items": .array(removed.map(Value.string))])
        return removed
    }

    /// `feature list`, in the order the features were begun.
    public var featureSummaries: [FeatureSummary] { features.values.map(summary(of:)) }

    /// `feature show NAME`
    public func featureSummary(_ name: String) throws(GraphError) -> FeatureSummary {
        guard let feature = features[name] else { throw .unknownFeature(name, existing: Array(features.keys)) }
        return summary(of: feature)
    }

    /// The names of the features, for completion.
    public var featureNames: [String] { Array(features.keys) }

    /// The feature open now, if any.
    public var openFeatureName: String? { openFeature?.name }

    /// Records a definition in the open feature, if there is one.
    func defined(_ item: FeatureItem) {
        guard let feature = openFeature else { return }
        feature.items.append(item)
        featureOf[item.key] = feature.name
    }

    /// The feature that defined the object or id, if any (for `save`).
    func feature(of key: FeatureKey) -> String? { featureOf[key] }

    private func summary(of feature: Feature) -> FeatureSummary {
        FeatureSummary(name: feature.name, isOpen: openFeature === feature,
                       items: feature.items.filter(isPresent).map(\.description))
    }

    /// Whether what the feature defined is still there (not removed or replaced since).
    private func isPresent(_ item: FeatureItem) -> Bool {
        switch item {
        case .node(let node): nodes[node.name] === node
        case .wire(let wire): wire.isLive
        case .reducer(let id, let store): (nodes[store] as? StoreNode)?.reducers.contains { $0.id == id } ?? false
        case .presenter(let id, _): presenters.contains { $0.id == id }
        case .route(let pattern, let registration):
            router.route(withPattern: pattern)?.payload.registrations.contains { $0 === registration } ?? false
        }
    }

    private func announceFeature(_ value: Value) {
        let node = routerNode()
        switch engine.writeMode {
        case .immediate: engine.runTransaction { node.emit(node.feature, value, cause: rootCause, .event) }
        case .buffered: engine.bufferedEvents.append { [unowned self] in node.emit(node.feature, value, cause: rootCause, .event) }
        case .queued: engine.enqueue("router.feature") { [unowned self] in announceFeature(value) }
        }
    }
}
