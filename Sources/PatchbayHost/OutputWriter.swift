import Foundation
@_spi(Shell) import PatchbayShell

/// Prints output lines: results to standard output, errors to standard error, in order.
///
/// Standard output is buffered and flushed before every error line, at `flush()`, and when the
/// buffer fills, so a script's output and its errors interleave as they happened.
final class OutputWriter {
    private var buffer: [UInt8] = []

    func write(_ line: OutputLine) {
        switch line.stream {
        case .output:
            buffer.append(contentsOf: line.text.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 64 * 1024 { flush() }
        case .error:
            flush()
            Self.writeAll(Array(line.text.utf8) + [UInt8(ascii: "\n")], to: STDERR_FILENO)
        }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        Self.writeAll(buffer, to: STDOUT_FILENO)
        buffer.removeAll(keepingCapacity: true)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    deinit { flush() }
}
