#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place Patchbay uses sockets: a `Recorder` connecting to a shell that runs
/// `inspect --listen`, and that shell listening for it. POSIX TCP sockets, nothing more.
///
/// Invariants, which the rest of the package relies on:
/// - Every descriptor made here is handed to exactly one owner, which closes it once: the
///   app's connection to its `SessionWriter`, the listening socket to its `SessionListener`,
///   an accepted connection to the `IncomingSession` (and then the `SessionFileReader`) that
///   reads it.
/// - Nothing here blocks the shell: the listening socket and the connections it accepts are
///   non-blocking, so that the shell polls them between commands as it polls a followed file.
/// - The app's connection blocks (its recorder's thread waits for a slow shell as it waits for
///   a slow disk) but never raises `SIGPIPE`: a write to a connection the shell closed fails
///   with `EPIPE` (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` on Darwin), which ends the recording
///   and not the app.
@_spi(Shell)
public enum SessionSocket {
    /// The most characters of a token; a token is 1 to this many of `A-Z a-z 0-9 . _ ~ -`, so
    /// that its line needs no escaping.
    public static let maximumTokenLength = 128

    /// Whether `token` can be sent (see `maximumTokenLength`).
    public static func isValidToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= maximumTokenLength
            && token.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == 0x2E || byte == 0x5F || byte == 0x7E || byte == 0x2D
            }
    }

    /// A new random token: 32 hexadecimal digits (128 bits from the system's generator).
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
    }

    /// The line that goes before the session header when the shell asks for a token:
    /// `{"token":"..."}` and a line break.
    public static func tokenLine(_ token: String) -> [UInt8] {
        Array(#"{"token":""#.utf8) + Array(token.utf8) + Array(#""}"#.utf8) + [0x0A]
    }

    /// `host:port`, with an IPv6 host in brackets, for messages.
    public static func endpointName(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Connects to `host` (a name or an address) at `port`, waiting at most `timeout`, and
    /// returns the connected, blocking descriptor (see the type's invariants).
    /// - Throws: `SessionError.Reason.cannotConnect` when no address of `host` accepts in time.
    static func connect(host: String, port: Int, timeout: Duration) throws(SessionError) -> Int32 {
        let name = endpointName(host: host, port: port)
        var failure = "no address"
        for address in try addresses(host: host, port: port, passive: false, name: name) {
            let descriptor = socket(address.family, Int32(streamType), 0)
            guard descriptor >= 0 else {
                failure = systemText(errno)
                continue
            }
            switch connecting(descriptor, to: address, timeout: timeout) {
            case nil:
                return descriptor
            case let code?:
                failure = code == ETIMEDOUT ? "no answer within \(timeout)" : systemText(code)
                _ = close(descriptor)
            }
        }
        throw SessionError(path: name, .cannotConnect(failure))
    }

    /// Connects `descriptor` without waiting longer than `timeout`, then makes it blocking and
    /// turns `SIGPIPE` off; returns the `errno` of a failure.
    private static func connecting(_ descriptor: Int32, to address: Address, timeout: Duration) -> Int32? {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let started = address.withPointer { pointer, length in systemConnect(descriptor, pointer, length) }
        if started != 0 {
            guard errno == EINPROGRESS else { return errno }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            var ready: Int32
            repeat { ready = poll(&waiting, 1, milliseconds) } while ready < 0 && errno == EINTR
            guard ready > 0 else { return ready == 0 ? ETIMEDOUT : errno }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
            if code != 0 { return code }
        }
        _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
        return nil
    }

    /// Writes all of `bytes` to the app's connection (the token line), before the writer
    /// takes it; returns the `errno` of a failure.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        return bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let count = Self.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
    }

    /// `write(2)` to a connection, without `SIGPIPE` (see the type's invariants).
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
        #else
        send(descriptor, bytes, count, 0)
        #endif
    }

    /// An address `getaddrinfo` found, copied out of its list.
    struct Address {
        var family: Int32
        var storage: sockaddr_storage
        var length: socklen_t

        func withPointer<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
            withUnsafePointer(to: storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
            }
        }

        /// Whether the address is a loopback one (`127.0.0.0/8`, `::1`).
        var isLoopback: Bool {
            withPointer { pointer, _ in
                switch Int32(pointer.pointee.sa_family) {
                case AF_INET:
                    pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127 }
                case AF_INET6:
                    pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                        withUnsafeBytes(of: address.pointee.sin6_addr) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
                    }
                default: false
                }
            }
        }

        /// `127.0.0.1:4321`, `[::1]:4321`.
        var text: String {
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST)), service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
            let found = withPointer { pointer, length in
                getnameinfo(pointer, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
            guard found == 0 else { return "an unknown address" }
            return endpointName(host: String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                port: Int(String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? 0)
        }
    }

    /// The TCP addresses of `host` at `port`.
    static func addresses(host: String, port: Int, passive: Bool, name: String) throws(SessionError) -> [Address] {
        guard (0...65_535).contains(port) else { throw SessionError(path: name, .cannotConnect("the port must be from 0 to 65535")) }
        var hints = addrinfo()
        hints.ai_socktype = Int32(streamType)
        hints.ai_flags = passive ? AI_PASSIVE : 0
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let list else {
            throw SessionError(path: name, .cannotConnect(code == EAI_SYSTEM ? systemText(errno) : String(cString: gai_strerror(code))))
        }
        defer { freeaddrinfo(list) }
        var found: [Address] = []
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let entry = next {
            if let pointer = entry.pointee.ai_addr, [AF_INET, AF_INET6].contains(entry.pointee.ai_family) {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { bytes in
                    bytes.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: Int(entry.pointee.ai_addrlen)))
                }
                found.append(Address(family: entry.pointee.ai_family, storage: storage, length: entry.pointee.ai_addrlen))
            }
            next = entry.pointee.ai_next
        }
        return found
    }

    /// The local address of `descriptor`, once bound.
    static func localAddress(_ descriptor: Int32) -> Address? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard found == 0 else { return nil }
        return Address(family: Int32(storage.ss_family), storage: storage, length: length)
    }

    static func systemText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    static let streamType = SOCK_STREAM
    #endif
}

/// `connect(2)`, under a name that `SessionSocket.connect` does not hide.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

/// A listening TCP socket, non-blocking, for `inspect --listen`: `accept()` returns a waiting
/// connection or `nil` at once. Closed when released.
@_spi(Shell)
public final class SessionListener {
    /// The address listened on, as it was given (`127.0.0.1`, `0.0.0.0`, a name).
    public let host: String
    /// The port bound: the one asked for, or the one the system chose for port 0.
    public let port: Int
    /// Whether every address listened on is a loopback one: only this machine can connect.
    public let isLoopback: Bool
    private let descriptor: Int32

    /// Listens on `host` at `port` (0: a port the system chooses, read back in `port`).
    /// - Throws: `SessionError.Reason.cannotListen` when the address does not resolve or
    ///   cannot be bound (in use, not this machine's).
    public init(host: String, port: Int) throws(SessionError) {
        let name = SessionSocket.endpointName(host: host, port: port)
        let found: [SessionSocket.Address]
        do throws(SessionError) { found = try SessionSocket.addresses(host: host, port: port, passive: true, name: name) } catch {
            if case .cannotConnect(let text) = error.reason { throw SessionError(path: name, .cannotListen(text)) }
            throw error
        }
        var failure = "no address"
        for address in found {
            let descriptor = socket(address.family, SessionSocket.streamType, 0)
            guard descriptor >= 0 else {
                failure = SessionSocket.systemText(errno)
                continue
            }
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let bound = address.withPointer { pointer, length in bind(descriptor, pointer, length) }
            guard bound == 0, listen(descriptor, 8) == 0, let local = SessionSocket.localAddress(descriptor) else {
                failure = SessionSocket.systemText(errno)
                _ = close(descriptor)
                continue
            }
            self.host = host
            self.descriptor = descriptor
            isLoopback = local.isLoopback
            self.port = Int(local.withPointer { pointer, _ in
                Int32(pointer.pointee.sa_family) == AF_INET6
                    ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                    : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            })
            return
        }
        throw SessionError(path: name, .cannotListen(failure))
    }

    /// `host:port` as bound.
    public var name: String { SessionSocket.endpointName(host: host, port: port) }

    /// A connection waiting to be accepted, non-blocking, with the address it came from; `nil`
    /// when none is waiting.
    public func accept() -> (descriptor: Int32, peer: String)? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let accepted = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(descriptor, $0, &length) }
            }
            guard accepted >= 0 else {
                // EAGAIN: none waiting; ECONNABORTED and the like: that one is gone, and so is any other for now.
                if errno == EINTR { continue }
                return nil
            }
            _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
            _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
            #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(accepted, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return (accepted, SessionSocket.Address(family: Int32(storage.ss_family), storage: storage, length: length).text)
        }
    }

    deinit { _ = close(descriptor) }
}

/// `accept(2)`, under a name that `SessionListener.accept()` does not hide.
private func systemAccept(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
    accept(descriptor, address, length)
}
