@_spi(Shell) import PatchbayCore

/// How a routed view is presented (VISPER's routing options).
@_spi(Shell)
public enum RoutingOption: String, Sendable, CaseIterable {
    /// On top of the stack.
    case push
    /// Over everything, as a modal; modals stack too.
    case modal
    /// In place of the top entry.
    case replace
    /// As the only entry: the stack is reset.
    case root
    /// In place of the entry below the top, which is then popped: going back to a new view.
    case back
}
