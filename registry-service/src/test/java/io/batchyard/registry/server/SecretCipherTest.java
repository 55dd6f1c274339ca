package io.batchyard.registry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretCipherTest {

    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

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
        assertThat(cipher.decrypt(ct, "server:1:login_password")).isEqualTo("s3cr3t-pa55");
        // a fresh nonce every time
        assertThat(cipher.encrypt("s3cr3t-pa55", "server:1:login_password")).isNotEqualTo(ct);
    }

    @Test
    void aCiphertextMovedToAnotherRowOrFieldDoesNotDecrypt() {
        SecretCipher cipher = cipher(KEY);
        byte[] ct = cipher.encrypt("s3cr3t", SecretCipher.associatedData(1, "login_password"));
        assertThatThrownBy(() -> cipher.decrypt(ct, SecretCipher.associatedData(2, "login_password")))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cipher.decrypt(ct, SecretCipher.associatedData(1, "ssh_private_key")))
                .isInstanceOf(IllegalStateException.class);
    }

    private static SecretCipher cipher(String key) {
        return new SecretCipher(Optional.ofNullable(key), "k1");
    }
}
