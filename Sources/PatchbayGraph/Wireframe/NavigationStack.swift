@_spi(Shell) public import PatchbayCore

/// The wireframe's navigation stack (PatchbayHost.docc/Routing.md), in two layers as VISPER's routing
/// presenters keep them: the navigation stack of pushed views, and over it the modals, each
/// presented over everything before it.
///
/// With a modal up, `push`, `replace` and `root` act on the navigation stack under the modals,
/// which stay where they are; `dismiss` then reveals the navigation stack as it has become.
@_spi(Shell)
public struct NavigationStack: Sendable, Equatable {
    /// One presented view.
    public struct Entry: Sendable, Equatable {
        public var view: String
        public var url: String
        public var params: Value
        /// What the view's presenters set, or `null` without presenters.
        public var content: Value
        public var isModal: Bool
        /// The pattern of the route that presented the view.
        public var pattern: String
        /// How the view was presented.
        public var option: RoutingOption
        /// What each presenter of the view gave, in the order they ran: `content` merges them.
        var parts: [PresenterPart] = []

        public init(view: String, url: String, params: Value, content: Value, isModal: Bool, pattern: String = "",
                    option: RoutingOption = .push) {
            self.view = view
            self.url = url
            self.params = params
            self.content = content
            self.isModal = isModal
            self.pattern = pattern
            self.option = option
        }

        /// Entries are equal when they show the same: what each presenter gave is bookkeeping.
        public static func == (a: Entry, b: Entry) -> Bool {
            a.view == b.view && a.url == b.url && a.params == b.params && a.content == b.content && a.isModal == b.isModal
                && a.pattern == b.pattern && a.option == b.option
        }

        /// The route result the presenters see as `route`: `{url, pattern, params, view, option}`.
        public var routeValue: Value {
            ["url": .string(url), "pattern": .string(pattern), "params": params, "view": .string(view),
             "option": .string(option.rawValue)]
        }
    }

    /// The pushed views, oldest first.
    public private(set) var navigation: [Entry] = []
    /// The modals over the navigation stack, oldest first.
    public private(set) var modals: [Entry] = []

    public init() {}

    /// Every entry, bottom first: the navigation stack, then the modals over it.
    public var entries: [Entry] { navigation + modals }

    /// Whether nothing is presented.
    public var isEmpty: Bool { navigation.isEmpty && modals.isEmpty }

    /// Presents `entry` as `option` says. `modal` adds a modal over everything; `push`, `replace`
    /// and `root` change the navigation stack, under the modals if there are any; `back` replaces
    /// the entry below the top and closes the top: with a modal up, it replaces the top of the
    /// navigation stack and dismisses the top modal (VISPER's BackTo).
    public mutating func present(_ entry: Entry, as option: RoutingOption) {
        var entry = entry
        entry.isModal = option == .modal
        entry.option = option
        switch option {
        case .modal:
            modals.append(entry)
        case .push:
            navigation.append(entry)
        case .replace:
            if navigation.isEmpty { navigation.append(entry) } else { navigation[navigation.count - 1] = entry }
        case .root:
            navigation = [entry]
        case .back:
            if !modals.isEmpty {
                if navigation.isEmpty { navigation.append(entry) } else { navigation[navigation.count - 1] = entry }
                modals.removeLast()
            } else if navigation.count >= 2 {
                navigation[navigation.count - 2] = entry
                navigation.removeLast()
            } else if navigation.isEmpty {
                navigation.append(entry)
            } else {
                navigation[0] = entry
            }
        }
    }

    /// Closes the top entry: the top modal if one is up, else the top of the navigation stack.
    /// Returns it, or `nil` when the stack is empty.
    @discardableResult
    public mutating func back() -> Entry? {
        modals.popLast() ?? navigation.popLast()
    }

    /// Closes the top modal; returns what was closed (empty when no modal is presented).
    @discardableResult
    public mutating func dismiss() -> [Entry] {
        modals.popLast().map { [$0] } ?? []
    }

    /// Gives the entry at `index` (counted as in `entries`) new presenter parts and content.
    mutating func update(at index: Int, parts: [PresenterPart], content: Value) {
        if index < navigation.count {
            navigation[index].parts = parts
            navigation[index].content = content
        } else {
            modals[index - navigation.count].parts = parts
            modals[index - navigation.count].content = content
        }
    }

    /// The stack as a value: `[{view, url, params, content, modal}]`, bottom first.
    public var value: Value {
        .array(entries.map { entry in
            ["view": .string(entry.view), "url": .string(entry.url), "params": entry.params, "content": entry.content,
             "modal": .bool(entry.isModal)]
        })
    }
}

/// What one presenter gave an entry: its value, or nothing when it was not responsible or failed.
struct PresenterPart: Sendable, Equatable {
    var presenter: String
    var value: Value?
}
