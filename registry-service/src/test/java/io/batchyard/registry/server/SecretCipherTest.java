package io.batchyard.registry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.api.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretCipherTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String KEY_A = key('a');
    private static final String KEY_B = key('b');

    @Test
    void refusesToStartWithoutAUsableKey() {
        assertThatThrownBy(() -> cipher(null)).isInstanceOf(IllegalStateException.class).hasMessageContaining("refusing");
        assertThatThrownBy(() -> cipher("  ")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cipher("not base64!")).isInstanceOf(IllegalStateException.class);
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
        assertThatThrownBy(() -> cipher(shortKey)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("32 bytes").hasMessageNotContaining(shortKey);
    }

    @Test
    void roundTripsAndNeverStoresThePlaintext() {
        SecretCipher cipher = cipher(KEY);
        byte[] ct = cipher.encrypt("s3cr3t-pa55", "server:1:login_password");
        assertThat(new String(ct, StandardCharsets.ISO_8859_1)).doesNotContain("s3cr3t-pa55");
        assertThat(cipher.decrypt(ct, "k1", "server:1:login_password", "it")).isEqualTo("s3cr3t-pa55");
        // a fresh nonce every time
        assertThat(cipher.encrypt("s3cr3t-pa55", "server:1:login_password")).isNotEqualTo(ct);
    }

    @Test
    void aCiphertextMovedToAnotherRowOrFieldDoesNotDecrypt() {
        SecretCipher cipher = cipher(KEY);
        byte[] ct = cipher.encrypt("s3cr3t", SecretCipher.associatedData(1, "login_password"));
        assertThatThrownBy(() -> cipher.decrypt(ct, "k1", SecretCipher.associatedData(2, "login_password"), "it"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(226))
                .hasMessageNotContaining("s3cr3t");
        assertThatThrownBy(() -> cipher.decrypt(ct, "k1", SecretCipher.associatedData(1, "ssh_private_key"), "it"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(226));
    }

    @Test
    void afterARotationThePreviousKeyOpensWhatItSealedAndNewSecretsTakeTheNewKey() {
        String aad = SecretCipher.associatedData(7, SecretCipher.PASSWORD);
        byte[] underA = new SecretCipher(Optional.of(KEY_A), "k1", Optional.empty(), Optional.empty())
                .encrypt("written-under-a", aad);

        SecretCipher rotated = new SecretCipher(Optional.of(KEY_B), "k2", Optional.of(KEY_A), Optional.of("k1"));
        assertThat(rotated.decrypt(underA, "k1", aad, "server 7")).isEqualTo("written-under-a");
        assertThat(rotated.keyId()).isEqualTo("k2");
        byte[] underB = rotated.encrypt("written-under-b", aad);
        assertThat(rotated.decrypt(underB, "k2", aad, "server 7")).isEqualTo("written-under-b");

        // once A is dropped, B still opens what it sealed; what A sealed is a clear refusal naming where it is
        SecretCipher bOnly = new SecretCipher(Optional.of(KEY_B), "k2", Optional.empty(), Optional.empty());
        assertThat(bOnly.decrypt(underB, "k2", aad, "server 7")).isEqualTo("written-under-b");
        assertThatThrownBy(() -> bOnly.decrypt(underA, "k1", aad, "the login password of server 7"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(226);
                    assertThat(e.status()).isEqualTo(409);
                })
                .hasMessageContaining("the login password of server 7").hasMessageContaining("'k1'")
                .hasMessageNotContaining("written-under-a").hasMessageNotContaining(KEY_A);
        // a key id that names the wrong key is refused the same way, not a 500
        SecretCipher swapped = new SecretCipher(Optional.of(KEY_B), "k1", Optional.empty(), Optional.empty());
        assertThatThrownBy(() -> swapped.decrypt(underA, "k1", aad, "server 7"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(226))
                .hasMessageContaining("does not decrypt");
    }

    @Test
    void refusesToStartWithAnAmbiguousOrUnusablePreviousKey() {
        assertThatThrownBy(() -> new SecretCipher(Optional.of(KEY_B), "k2", Optional.of(KEY_A), Optional.empty()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("batchyard.secrets.previous-key-id");
        assertThatThrownBy(() -> new SecretCipher(Optional.of(KEY_B), "k1", Optional.of(KEY_A), Optional.of("k1")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("id of the current key");
        assertThatThrownBy(() -> new SecretCipher(Optional.of(KEY_B), "k2", Optional.of("short"), Optional.of("k1")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("batchyard.secrets.previous-key")
                .hasMessageNotContaining("short");
        assertThatThrownBy(() -> new SecretCipher(Optional.of(KEY_B), "k".repeat(33), Optional.empty(),
                Optional.empty())).isInstanceOf(IllegalStateException.class).hasMessageContaining("32 characters");
        // a previous key id left behind without its key changes nothing
        assertThat(new SecretCipher(Optional.of(KEY_B), "k2", Optional.of(" "), Optional.of("k1")).previousKeyId())
                .isEmpty();
    }

    private static SecretCipher cipher(String key) {
        return new SecretCipher(Optional.ofNullable(key), "k1", Optional.empty(), Optional.empty());
    }

    private static String key(char fill) {
        return Base64.getEncoder().encodeToString(String.valueOf(fill).repeat(32).getBytes(StandardCharsets.US_ASCII));
    }
}
