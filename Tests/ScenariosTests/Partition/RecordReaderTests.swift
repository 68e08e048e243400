import Foundation
@testable import Scenarios
import Simulation
import Testing

/// The merge's CSV record reader: records end at a line feed outside quotes, across the reader's
/// megabyte chunks; a quoted field may hold line feeds, commas and doubled quotes.
@Suite("Record reader")
struct RecordReaderTests {
    @Test func readsEveryRecordAsWrittenAcrossChunks() throws {
        var random = SplitMix64(seed: 31)
        var records: [String] = ["time,listing,zoneC\n"]
        var size = 0
        while size < 2_600_000 {  // more than two chunks
            let listing: String
            switch random.next() % 6 {
            case 0: listing = "\"flat, \"\"north\"\"\""
            case 1: listing = "\"two\nlines\""
            case 2: listing = "\"\""
            default: listing = "flat-\(random.next() % 1000)"
            }
            let record = "2026-01-01T00:\(random.next() % 60),\(listing),\(random.next() % 300)\n"
            records.append(record)
            size += record.utf8.count
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try records.joined().write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try RecordReader(path: path)
        var read: [String] = []
        while let record = try reader.next() { read.append(String(decoding: record, as: UTF8.self)) }
        #expect(read.count == records.count)
        #expect(read == records)
    }

    @Test func aFileEndingInsideARecordIsCorrupt() throws {
        for text in ["a,b\n1,2", "a,b\n\"1\n,2\n", "a,b\n\"open"] {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("records-cut-\(getpid()).csv").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let reader = try RecordReader(path: path)
            #expect(throws: PartitionError.self, "\(text.debugDescription)") {
                while try reader.next() != nil {}
            }
        }
    }
}
