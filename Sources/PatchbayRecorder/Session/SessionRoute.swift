public import PatchbayCore

/// A routed URL, as a route line records it:
/// `{"seq":7,"kind":"route","url":"/message/Max","pattern":"/message/:username",
/// "params":{"username":"Max"},"view":"Message","option":"modal"}`.
@_spi(Shell)
public struct SessionRoute: Sendable, Equatable {
    /// The URL as given.
    public var url: String
    /// The pattern that matched.
    public var pattern: String
    /// The parameters, an object.
    public var params: Value
    /// The view presented, if the route has one.
    public var view: String?
    /// How it was presented (`push`, `modal`, ...), if it was.
    public var option: String?

    /// A route line's content.
    public init(url: String, pattern: String, params: Value, view: String? = nil, option: String? = nil) {
        self.url = url
        self.pattern = pattern
        self.params = params
        self.view = view
        self.option = option
    }
}
