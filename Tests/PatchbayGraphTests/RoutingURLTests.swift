@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
import PatchbayTestSupport
import Testing

// URLs are taken apart by hand over their UTF-8 bytes, the way
// JLRoutes' JLRRouteRequest does, with no Foundation URL or path helpers.

/// The path segments (as written) and query items of `url`.
private func parts(_ url: String) throws(RoutingError) -> (segments: [String], query: Value.Members) {
    try RouteRequest.withRequest(for: url) { (request) throws(RoutingError) -> ([String], Value.Members) in
        (request.rawSegments, try QueryParameters.items(of: request))
    }
}

private func segments(_ url: String) throws(RoutingError) -> [String] { try parts(url).segments }

private func urlError(_ url: String) -> RoutingError? {
    do {
        _ = try parts(url)
        return nil
    } catch {
        return error
    }
}

@Suite struct RoutingURLTests {
    @Test func emptyPathsHaveNoSegments() throws {
        for url in ["", "/", "//", "tests://", "tests:///", "tests://localhost", "https://example.com/"] {
            #expect(try segments(url) == [], "\(url)")
        }
    }

    @Test func anythingThatStartsWithASchemeIsAURL() throws {
        for url in ["/", "/a", "tests:/test", "tests:/", "tests:", "tests:test", "myapp://user/42", "a+b-c.d:/x", "HTTP://x"] {
            #expect(Router<Void>.isURL(url), "\(url)")
        }
        for url in ["", "test", "1tests:/test", "te_st:/test", ":/test", "tests", "a b:/c", "-x:/y"] {
            #expect(!Router<Void>.isURL(url), "\(url)")
        }
        #expect(try segments("tests:/test") == ["test"])
        #expect(try segments("tests:/") == [])
        #expect(try segments("tests:test/a") == ["test", "a"])
    }

    @Test func trailingSlashIsIgnored() throws {
        #expect(try segments("tests://test/") == ["test"])
        #expect(try segments("/a/b/") == ["a", "b"])
        #expect(try segments("a/b") == ["a", "b"])
        // Only one slash is dropped at each end, as JLRoutes does.
        #expect(try segments("/a//") == ["a", ""])
        #expect(try segments("/a//b") == ["a", "", "b"])
    }

    @Test func hostIsTheFirstSegmentUnlessDottedOrLocalhost() throws {
        #expect(try segments("myapp://user/view/x") == ["user", "view", "x"])
        #expect(try segments("myapp://user") == ["user"])
        #expect(try segments("https://www.mydomain.com/sign_in") == ["sign_in"])
        #expect(try segments("myapp://user.profile/42") == ["42"])
        #expect(try segments("https://localhost/x") == ["x"])
        #expect(try segments("https://LOCALHOST/x") == ["LOCALHOST", "x"])  // compared exactly, as JLRoutes does
        #expect(try segments("//host/x") == ["host", "x"])
    }

    @Test func userAndPortAreNotPartOfTheHost() throws {
        #expect(try segments("myapp://user:8080/x") == ["user", "x"])
        #expect(try segments("myapp://me:secret@user/x") == ["user", "x"])
        #expect(try segments("http://example.com:8080/x") == ["x"])
    }

    @Test func percentEncodedSlashDoesNotSplit() throws {
        #expect(try segments("/a%2Fb/c") == ["a%2Fb", "c"])
    }

    @Test func fragmentPathExtendsThePath() throws {
        // F: `user#/view/joeldev` is `user#`, `view`, `joeldev`.
        #expect(try segments("tests://user#/view/joeldev") == ["user#", "view", "joeldev"])
        #expect(try segments("/user#/view/joeldev") == ["user#", "view", "joeldev"])
        // An empty fragment still appends '#'.
        #expect(try segments("/xyz/wildcard#") == ["xyz", "wildcard#"])
        #expect(try segments("/#") == ["#"])
        // A fragment without '=' is a path, even when it looks like a word.
        #expect(try segments("/a#flag") == ["a#flag"])
    }

    @Test func fragmentQueryAddsItemsAfterTheURLs() throws {
        let (path, query) = try parts("/a?x=1#x=2&y=3")
        #expect(path == ["a"])
        #expect(query == ["x": ["1", "2"], "y": "3"])  // D16: repeated across URL and fragment
        // A fragment with its own path and query: both count.
        let (path2, query2) = try parts("/a#/b?k=v")
        #expect(path2 == ["a#", "b"])
        #expect(query2 == ["k": "v"])
        // A first item with an empty value is not a query: the fragment is a path.
        let (path3, query3) = try parts("/a#k=&j=1")
        #expect(path3 == ["a#k=&j=1"])
        #expect(query3 == [:])
    }

    @Test func queryBeforeFragmentPath() throws {
        // The path and the fragment's path are not adjacent here; the path is joined from pieces.
        let (path, query) = try parts("/a?x=1#/view")
        #expect(path == ["a#", "view"])
        #expect(query == ["x": "1"])
        #expect(try segments("myapp://user:80#/view") == ["user#", "view"])
    }

    @Test func queryItems() throws {
        #expect(try parts("/s?q=swift&page=2").query == ["q": "swift", "page": "2"])
        #expect(try parts("/s?tag=a&tag=b&tag=c").query == ["tag": ["a", "b", "c"]])
        #expect(try parts("/s?flag&x=1").query == ["x": "1"])  // D06: no value, dropped
        #expect(try parts("/s?flag=").query == ["flag": ""])  // D07
        #expect(try parts("/s?a=1=2&&=v").query == ["a": "1=2", "": "v"])
        #expect(try parts("/s?").query == [:])
    }

    @Test func plusIsASpaceOnlyWhenWrittenInAQueryValue() throws {
        #expect(try parts("/s?q=a+b").query == ["q": "a b"])
        // Deliberate difference (DP01): JLRoutes decodes %2B first, then turns it into a space too.
        #expect(try parts("/s?q=a%2Bb").query == ["q": "a+b"])
        #expect(try parts("/s?a+b=1").query == ["a+b": "1"])  // names keep '+', as in JLRoutes
        #expect(try segments("/a+b") == ["a+b"])
    }

    @Test func queryIsPercentDecodedOnce() throws {
        #expect(try parts("/s?q=%2525&n%61me=caf%C3%A9").query == ["q": "%25", "name": "café"])
    }

    @Test func malformedPercentEscapesAreErrors() {
        #expect(urlError("/a%2") == RoutingError(.malformedPercentEscape("%2"), at: 2..<4))
        #expect(urlError("/a%zz/b") == RoutingError(.malformedPercentEscape("%zz"), at: 2..<5))
        #expect(urlError("/a?x=%") == RoutingError(.malformedPercentEscape("%"), at: 5..<6))
        #expect(urlError("/ok#frag%G0") == RoutingError(.malformedPercentEscape("%G0"), at: 8..<11))
        #expect(urlError("/a%2")?.description == "malformed percent-escape '%2'; write '%' as %25")
    }

    @Test func invalidUTF8AfterDecodingIsAnError() {
        #expect(urlError("/s?q=%FF") == RoutingError(.invalidUTF8("%FF"), at: 5..<8))
    }

    @Test func rawNonASCIIAndBinaryGarbageNeverCrash() throws {
        #expect(try segments("/café/ü") == ["café", "ü"])
        var random = SplitMix64(seed: 0x0123_4567)
        let alphabet = Array("/?#%&=+:.@aZ9 é\u{0}".unicodeScalars)
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 24) { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            _ = try? parts(text)
        }
    }

    @Test func hugeURLs() throws {
        let slashes = String(repeating: "/", count: 100_000)
        // "//" starts an (empty) authority; the path is the other 99,998 slashes.
        #expect(try segments(slashes).count == 99_997)
        let long = "/" + String(repeating: "x", count: 1_000_000)
        #expect(try segments(long).first?.utf8.count == 1_000_000)
    }
}
