public import PatchbayCore

/// The wireframe's navigation stack: the views presented, oldest first (SPEC 5.3).
public struct NavigationStack: Sendable, Equatable {
    /// One presented view.
    public struct Entry: Sendable, Equatable {
        public var view: String
        public var url: String
        public var params: Value
        /// What the view's presenters set, or `null` without presenters.
        public var content: Value
        public var isModal: Bool

        public init(view: String, url: String, params: Value, content: Value, isModal: Bool) {
            self.view = view
            self.url = url
            self.params = params
            self.content = content
            self.isModal = isModal
        }
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    /// Presents `entry` as `option` says.
    public mutating func present(_ entry: Entry, as option: RoutingOption) {
        var entry = entry
        entry.isModal = option == .modal
        switch option {
        case .push, .modal:
            entries.append(entry)
        case .replace:
            if entries.isEmpty { entries.append(entry) } else { entries[entries.count - 1] = entry }
        case .root:
            entries = [entry]
        case .back:
            if entries.count >= 2 {
                entries[entries.count - 2] = entry
                entries.removeLast()
            } else if entries.isEmpty {
                entries.append(entry)
            } else {
                entries[0] = entry
            }
        }
    }

    /// Pops the top entry; returns it, or `nil` when the stack is empty.
    @discardableResult
    public mutating func back() -> Entry? {
        entries.popLast()
    }

    /// Closes the top modal with everything above it; returns what was closed (empty when no
    /// modal is presented).
    @discardableResult
    public mutating func dismiss() -> [Entry] {
        guard let index = entries.lastIndex(where: \.isModal) else { return [] }
        defer { entries.removeSubrange(index...) }
        return Array(entries[index...])
    }

    /// The stack as a value: `[{view, url, params, content, modal}]`.
    public var value: Value {
        .array(entries.map { entry in
            ["view": .string(entry.view), "url": .string(entry.url), "params": entry.params, "content": entry.content,
             "modal": .bool(entry.isModal)]
        })
    }
}
