/// A subscription. It ends when `disconnect()` is called or when the connection is released,
/// whichever comes first; a listener disconnected mid-delivery gets nothing more, at once.
public final class Connection {
    private var action: (() -> Void)?

    package init(_ action: @escaping () -> Void) {
        self.action = action
    }

    /// Whether the subscription is still active.
    public var isConnected: Bool { action != nil }

    /// Ends the subscription. Calling it again does nothing.
    public func disconnect() {
        let action = self.action
        self.action = nil
        action?()
    }

    /// Keeps the connection alive as long as `connector` (or until it disconnects).
    public func put(into connector: Connector) {
        connector.add(self)
    }

    deinit { disconnect() }
}

/// Holds many connections and ends them together.
public final class Connector {
    private var connections: [Connection] = []

    public init() {}

    /// Keeps `connection` until `disconnect()`.
    public func add(_ connection: Connection) {
        connections.removeAll { !$0.isConnected }
        connections.append(connection)
    }

    /// How many connections are still active.
    public var count: Int { connections.filter(\.isConnected).count }

    /// Ends every connection held.
    public func disconnect() {
        let held = connections
        connections.removeAll()
        for connection in held { connection.disconnect() }
    }

    deinit { disconnect() }
}
