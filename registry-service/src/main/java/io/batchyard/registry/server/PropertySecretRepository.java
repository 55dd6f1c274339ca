package io.batchyard.registry.server;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The ciphertexts of secret properties (config groups {@code credential} and {@code security}), for re-encryption
 * only. They are sealed with this feature's cipher and key, so moving them to a new key belongs with the key; every
 * other read and write of properties is the process feature's. Statements join the caller's session.
 */
@ApplicationScoped
public class PropertySecretRepository extends SqlRepository {

    /**
     * The secret properties sealed under another key than {@code keyId}, locked against other changes until the
     * caller's transaction ends.
     */
    public Uni<List<PropertySecret>> lockNotUnder(String keyId) {
        return list("""
                        SELECT process_id, prop_key, encode(prop_value_ct, 'hex') AS prop_value_hex, secrets_key_id
                        FROM property
                        WHERE prop_value_ct IS NOT NULL AND secrets_key_id <> :keyId
                        ORDER BY process_id, prop_key FOR NO KEY UPDATE""", Params.of("keyId", keyId),
                PropertySecretRepository::sealed);
    }

    public Uni<Void> reseal(long processId, String key, byte[] ciphertext, String keyId) {
        return update("""
                        UPDATE property SET prop_value_ct = CAST(:ct AS bytea), secrets_key_id = :keyId
                        WHERE process_id = :processId AND prop_key = :key""",
                Params.of("processId", processId).and("key", key).and("ct", ciphertext).and("keyId", keyId))
                .replaceWithVoid();
    }

    private static PropertySecret sealed(Row r) {
        return new PropertySecret(r.getLong("process_id"), r.getString("prop_key"),
                ServerRepository.bytes(r, "prop_value_hex"), r.getString("secrets_key_id"));
    }
}
