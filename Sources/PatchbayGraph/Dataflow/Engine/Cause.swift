@_spi(Shell) import PatchbayCore

/// Why a port holds its value (`why`): the command that started the change, then every port the
/// value passed through. An immutable list shared from port to port, so passing a cause on costs
/// one small allocation, never a copy of the chain.
final class Cause: Sendable {
    let text: String
    let previous: Cause?

    init(_ text: String, after previous: Cause? = nil) {
        self.text = text
        self.previous = previous
    }

    /// The chain, oldest first.
    var chain: [String] {
        var texts: [String] = []
        var link: Cause? = self
        while let current = link {
            texts.append(current.text)
            link = current.previous
        }
        return texts.reversed()
    }

    /// The chain as `why` tells it, oldest first, without the empty links (a command that
    /// names nothing): the command, then each port.
    var trace: [String] { chain.filter { !$0.isEmpty } }
}
