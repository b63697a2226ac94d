/// SQL that SQLite and PostgreSQL both accept, so the two schemas keep the same rules.
///
/// Names are unquoted camelCase: PostgreSQL folds them to lower case, SQLite keeps them, and the same
/// statements work on both.
enum SharedSchema {
    /// Login attempts per subject (`account:EMAIL` or `address:IP`) in a fixed window.
    static let loginThrottle = """
        CREATE TABLE IF NOT EXISTS loginThrottle (
            subject TEXT PRIMARY KEY NOT NULL,
            windowStart DOUBLE PRECISION NOT NULL,
            attempts INTEGER NOT NULL
        )
        """

    /// Counters bumped by triggers whenever a table changes, whoever changes it.
    static let changeCounter = """
        CREATE TABLE IF NOT EXISTS changeCounter (
            name TEXT PRIMARY KEY NOT NULL,
            version BIGINT NOT NULL
        )
        """

    /// One attempt in this many also deletes windows older than `throttleRetention` seconds, so a flood
    /// of addresses cannot grow the table without bound.
    static let throttlePruneOneIn = 100
    static let throttleRetention: Double = 24 * 3600

    /// One attempt counted in one statement: a new window when the old one is over, else one more.
    /// The arguments are placeholders (or expressions): the subject, now, and the cutoff (now minus
    /// the window). With `onlyIf`, the row is counted only when that condition holds over `from`
    /// (PostgreSQL: the result of the count before it, so it counts only if that one allowed it).
    static func countAttempt(subject: String, now: String, cutoff: String, onlyIf: (from: String, condition: String)? = nil)
        -> String
    {
        let row = onlyIf.map { "SELECT \(subject), \(now), 1 FROM \($0.from) WHERE \($0.condition)" }
            ?? "VALUES (\(subject), \(now), 1)"
        return """
            INSERT INTO loginThrottle (subject, windowStart, attempts) \(row)
            ON CONFLICT (subject) DO UPDATE SET
                attempts = CASE WHEN loginThrottle.windowStart <= \(cutoff) THEN 1 ELSE loginThrottle.attempts + 1 END,
                windowStart = CASE WHEN loginThrottle.windowStart <= \(cutoff) THEN \(now) ELSE loginThrottle.windowStart END
            RETURNING attempts, windowStart
            """
    }

    /// Deletes the attempt windows that began before the placeholder `before`. On PostgreSQL it skips
    /// rows a login holds (`SKIP LOCKED`): a count holds its address's row while it waits for its
    /// account's, and a prune that locked in table order could wait on it while holding that one.
    static func pruneAttempts(before: String, skippingLocked: Bool = false) -> String {
        guard skippingLocked else { return "DELETE FROM loginThrottle WHERE windowStart < \(before)" }
        return """
            DELETE FROM loginThrottle WHERE subject IN (
                SELECT subject FROM loginThrottle WHERE windowStart < \(before) FOR UPDATE SKIP LOCKED)
            """
    }

    /// Deletes every pin but the newest of each account.
    static let mergeDuplicatePins = """
        DELETE FROM studentLocation WHERE objectId IN (
            SELECT objectId FROM (
                SELECT objectId, ROW_NUMBER() OVER (
                    PARTITION BY uniqueKey ORDER BY updatedAt DESC, createdAt DESC, objectId DESC) AS position
                FROM studentLocation
            ) AS ranked WHERE position > 1
        )
        """

    static let onePinIndexName = "studentLocation_one_per_account"

    /// The index that makes one pin per account a rule of the database.
    static let onePinIndex =
        "CREATE UNIQUE INDEX IF NOT EXISTS \(onePinIndexName) ON studentLocation (uniqueKey)"

    /// Columns of `studentLocation`, in insert order.
    static let locationColumns =
        "objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt"

    /// Inserts a pin; with `onePerAccount`, an account's existing pin is moved instead, in the same
    /// statement, and the row returned is that pin's. Parameters 1…10 in `locationColumns` order;
    /// `next` is the backend's `PinVersion.next` (a moved pin's `updatedAt` moves forward too).
    static func postLocation(
        onePerAccount: Bool, next: (_ now: String, _ previous: String) -> String, _ p: (Int) -> String
    ) -> String {
        let values = (1...10).map(p).joined(separator: ", ")
        let conflict = onePerAccount ? """
            ON CONFLICT (uniqueKey) DO UPDATE SET firstName = excluded.firstName, lastName = excluded.lastName,
                mapString = excluded.mapString, mediaURL = excluded.mediaURL, latitude = excluded.latitude,
                longitude = excluded.longitude, updatedAt = \(next("excluded.updatedAt", "studentLocation.updatedAt"))
            """ : ""
        return "INSERT INTO studentLocation (\(locationColumns)) VALUES (\(values)) \(conflict) RETURNING objectId, createdAt"
    }
}
