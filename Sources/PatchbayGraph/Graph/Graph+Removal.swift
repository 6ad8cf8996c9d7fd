@_spi(Shell) import PatchbayCore

extension Graph {
    /// `rm NAME`: removes a node with its wires, probes, pipes and bindings. Inputs it drove go
    /// back to their local values; derived nodes that read it keep their value, marked failed.
    ///
    /// Refused inside `begin` ... `commit`: `abort` could not bring the node back (its wires,
    /// probes, timers and store history go with it), so a removal never waits on a transaction.
    public func remove(_ name: String) throws(GraphError) {
        guard !engine.isInTransaction else { throw .inTransaction("rm") }
        let node = try node(name)
        var reverted: [InputPort] = []
        for output in node.outputs {
            for receiver in output.receivers {
                switch receiver {
                case let wire as Wire:
                    detach(wire)
                    if wire.target.owner !== node { reverted.append(wire.target) }
                case let pipe as KnotPipe:
                    pipe.knot.removePipe(pipe)
                    output.detach(pipe)
                case let trigger as DerivedNode.Trigger:
                    trigger.derived.forget(output)
                    trigger.derived.markFailed("it reads \(name), which was removed")
                default:
                    break
                }
            }
        }
        // In the order the edges were made: the inputs go back to their local values in turn.
        for wire in delayWires where wire.source.owner === node || wire.target.owner === node {
            detach(wire)
            if wire.target.owner !== node { reverted.append(wire.target) }
        }
        for input in node.inputs {
            for wire in input.wires { detach(wire) }
        }
        for (key, connections) in probes where key == name || key.hasPrefix(name + ".") {
            for connection in connections { connection.disconnect() }
            probes[key] = nil
        }
        for binding in bindings where binding.involves(node) { binding.disconnect() }
        bindings.removeAll { $0.involves(node) }
        node.willRemove()
        node.detachAll()
        nodes[name] = nil
        engine.unregister(node)
        rankAll()
        if let store = node as? StoreNode {
            storeNameSet.remove(name)
            for reducer in store.reducers { reducerIDs.remove(reducer.id) }
            for middleware in store.middleware { middlewareIDs.remove(middleware.id) }
            tellStoreObservers(.removed(store: name))
        }
        // An input that several of the node's wires drove goes back once.
        for (index, input) in reverted.enumerated() where !reverted[..<index].contains(where: { $0 === input }) { revert(input) }
    }
}
