import Foundation
import OnTheMapModels
import PostgresNIO

extension PostgresStorage {
    static func location(_ row: PostgresRow) throws -> StudentLocation {
        let (objectId, uniqueKey, first, last, mapString, mediaURL, latitude, longitude, created, updated) =
            try row.decode((String, String, String, String, String, String, Double, Double, Date, Date).self)
        return StudentLocation(
            objectId: objectId, uniqueKey: uniqueKey, firstName: first, lastName: last, mapString: mapString,
            mediaURL: mediaURL, latitude: latitude, longitude: longitude, createdAt: created, updatedAt: updated)
    }

    public func locations(_ query: LocationQuery) async throws -> [StudentLocation] {
        let (condition, values) = query.whereClause { "$\($0)" }
        var sql = "SELECT \(SharedSchema.locationColumns) FROM studentLocation\(condition)"
        var bindings = Self.bindings(values)
        bindings.append(query.limit)
        bindings.append(query.skip)
        let count = bindings.count
        sql += " ORDER BY \(query.orderByClause) LIMIT $\(count - 1) OFFSET $\(count)"
        return try await database.rows(PostgresQuery(unsafeSQL: sql, binds: bindings)).map(Self.location)
    }

    public func countLocations(_ query: LocationQuery) async throws -> Int {
        let (condition, values) = query.whereClause { "$\($0)" }
        return try await database.rows(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM studentLocation\(condition)", binds: Self.bindings(values))
        ).first?.decode(Int.self) ?? 0
    }

    private static func bindings(_ values: [LocationFilter.Value]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count + 2)
        for value in values {
            switch value {
            case .text(let text): bindings.append(text)
            case .number(let number): bindings.append(number)
            case .date(let date): bindings.append(date)
            }
        }
        return bindings
    }

    public func location(objectId: String) async throws -> StudentLocation? {
        try await database.rows(
            PostgresQuery(
                unsafeSQL: "SELECT \(SharedSchema.locationColumns) FROM studentLocation WHERE objectId = $1",
                binds: Self.binds(objectId))
        ).first.map(Self.location)
    }

    public func postLocation(_ draft: StudentLocationDraft, objectId: String, now: Date) async throws
        -> PostedLocation
    {
        let timestamp = WireTimestamp.roundedToMilliseconds(now)
        let sql = SharedSchema.postLocation(onePerAccount: pinsPerAccount == .one, next: PinVersion.postgresNext) { "$\($0)" }
        // This replica's next answer shows the write; other replicas hear of it by NOTIFY.
        defer { changes.noteLocalChange() }
        let rows = try await database.rows(
            PostgresQuery(
                unsafeSQL: sql,
                binds: Self.binds(
                    objectId, draft.uniqueKey, draft.firstName, draft.lastName, draft.mapString, draft.mediaURL,
                    draft.latitude, draft.longitude, timestamp, timestamp)))
        guard let row = rows.first else { throw StorageError.unavailable("no answer to an insert") }
        let (storedID, created) = try row.decode((String, Date).self)
        return PostedLocation(objectId: storedID, createdAt: created, moved: storedID != objectId)
    }

    public func updateLocation(
        objectId: String, with draft: StudentLocationDraft, ownedBy owner: String?, ifUpdatedAt readAt: Date?, now: Date
    ) async throws -> LocationUpdate {
        let timestamp = WireTimestamp.roundedToMilliseconds(now)
        // Even when the statement fails: the mark costs one version read, a stale list much more.
        defer { changes.noteLocalChange() }
        let updated: StudentLocation?
        do {
            updated = try await database.rows(
                """
                WITH asked AS (SELECT \(timestamp)::timestamptz AS now, \(readAt)::timestamptz AS readAt)
                UPDATE studentLocation SET uniqueKey = \(draft.uniqueKey), firstName = \(draft.firstName),
                    lastName = \(draft.lastName), mapString = \(draft.mapString), mediaURL = \(draft.mediaURL),
                    latitude = \(draft.latitude), longitude = \(draft.longitude),
                    updatedAt = \(unescaped: PinVersion.postgresNext(now: "asked.now", previous: "studentLocation.updatedAt"))
                FROM asked
                WHERE objectId = \(objectId) AND uniqueKey = COALESCE(\(owner), uniqueKey)
                    AND \(unescaped: PinVersion.postgresSame("studentLocation.updatedAt", "asked.readAt"))
                RETURNING objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt,
                    studentLocation.updatedAt
                """
            ).first.map(Self.location)
        } catch let error where PostgresErrors.isUniqueViolation(error) {
            throw StorageError.accountHasPin(draft.uniqueKey)
        }
        if let updated { return .updated(updated) }
        // Nothing changed; only now is it worth a second query to say why.
        guard owner != nil || readAt != nil, let current = try await location(objectId: objectId) else { return .notFound }
        if readAt == nil { return .ownedByAnother }  // the owner was the one condition
        if let owner, current.uniqueKey != owner { return .ownedByAnother }
        return .changedSinceRead
    }

    public func insertLocations(_ locations: [StudentLocation]) async throws {
        let onePerAccount = pinsPerAccount == .one
        defer { changes.noteLocalChange() }
        try await database.transaction { connection, logger in
            for location in locations {
                let created = WireTimestamp.roundedToMilliseconds(location.createdAt ?? Date())
                let updated = WireTimestamp.roundedToMilliseconds(location.updatedAt ?? created)
                // With one pin per account, the newer of two pins of an account wins.
                let conflict = onePerAccount
                    ? """
                    ON CONFLICT (uniqueKey) DO UPDATE SET objectId = excluded.objectId, firstName = excluded.firstName,
                        lastName = excluded.lastName, mapString = excluded.mapString, mediaURL = excluded.mediaURL,
                        latitude = excluded.latitude, longitude = excluded.longitude, createdAt = excluded.createdAt,
                        updatedAt = excluded.updatedAt
                    WHERE studentLocation.updatedAt < excluded.updatedAt
                    """ : ""
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "INSERT INTO studentLocation (\(SharedSchema.locationColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \(conflict)",
                        binds: Self.binds(
                            location.objectId, location.uniqueKey, location.firstName, location.lastName,
                            location.mapString, location.mediaURL, location.latitude, location.longitude, created, updated)),
                    logger: logger)
            }
        }
    }

    public func locationCount() async throws -> Int {
        try await database.rows("SELECT count(*) FROM studentLocation").first?.decode(Int.self) ?? 0
    }

    public func locationsVersion() async throws -> Int64 {
        try await database.rows(PostgresSchema.locationsVersion).first?
            .decode(Int64.self) ?? 0
    }
}
