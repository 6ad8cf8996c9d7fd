@_spi(Shell) import PatchbayRecorder

/// `inspect --listen`: the listening socket and the connections that have not started their
/// session yet. One app is accepted: the first whose token (when one is asked for) and header
/// arrive whole; its session is then followed as a growing file is (see `Following`). Every
/// other connection is refused with a line that says why, and listening goes on until the
/// accepted app's connection ends. Polled between commands; nothing here waits.
final class Listening {
    /// A connection that has not sent its token and header yet, and until when it may take.
    private struct Pending {
        var session: IncomingSession
        var deadline: ContinuousClock.Instant
    }

    /// What a poll found, for the lines the shell prints.
    enum Notice: Equatable {
        /// The app at `peer` connected, and its session started.
        case connected(peer: String)
        /// A connection from `peer` was refused (and closed) for `reason`.
        case refused(peer: String, reason: String)
    }

    let listener: SessionListener
    /// The token an app must send first; `nil` on loopback when none was given.
    let token: String?
    /// Where the accepted app connected from, once one is.
    private(set) var peer: String?
    private var pending: [Pending] = []

    /// How long a connection may take to send its token and header.
    static let handshakeTime: Duration = .seconds(10)
    /// The most connections starting at once; more are refused until one is done.
    static let maximumPending = 4

    init(listener: SessionListener, token: String?) {
        self.listener = listener
        self.token = token
    }

    /// Accepts what is waiting and moves the starting connections on: the reader of the app's
    /// session when one started now, and what happened to the others.
    func poll() -> (reader: SessionFileReader?, notices: [Notice]) {
        var notices: [Notice] = []
        var started: SessionFileReader?
        while let (descriptor, from) = listener.accept() {
            let session = IncomingSession(descriptor: descriptor, peer: from, token: token)
            if let peer {
                notices.append(.refused(peer: from, reason: "an app is connected already (from \(peer)); one app at a time"))
            } else if pending.count >= Self.maximumPending {
                notices.append(.refused(peer: from, reason: "\(Self.maximumPending) connections are starting already"))
            } else {
                pending.append(Pending(session: session, deadline: .now + Self.handshakeTime))
            }
        }
        let now = ContinuousClock.now
        var index = 0
        while index < pending.count {
            let from = pending[index].session.peer
            if started != nil || peer != nil {
                notices.append(.refused(peer: from, reason: "another app connected first; one app at a time"))
                pending.remove(at: index)
                continue
            }
            do throws(SessionError) {
                if let reader = try pending[index].session.poll() {
                    started = reader
                    peer = from
                    notices.append(.connected(peer: from))
                    pending.remove(at: index)
                    continue
                }
                if now >= pending[index].deadline {
                    notices.append(.refused(peer: from, reason: "it sent no session header within \(Self.handshakeTime.components.seconds) s"))
                    pending.remove(at: index)
                    continue
                }
                index += 1
            } catch {
                notices.append(.refused(peer: from, reason: error.detail))
                pending.remove(at: index)
            }
        }
        return (started, notices)
    }
}
