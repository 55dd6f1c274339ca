package io.batchyard.teststack.identity;

import io.smallrye.jwt.build.Jwt;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

/**
 * A signing key generated for this JVM: the services trust its public key ({@code quarkus.oidc.public-key}) and tests
 * sign tokens with the private one. The tokens have the claims an OpenID Connect provider configured for Batchyard
 * issues: {@code iss}, {@code aud} ({@link #AUDIENCE}), {@code sub}, {@code preferred_username}, {@code roles},
 * {@code groups}.
 */
final class SigningKeyIdentity extends Identity {

    static final String ISSUER = "https://batchyard.test/signing-key";
    private static final String KEY_PROPERTY = "batchyard.test.signing-key";

    private final KeyPair keys;

    private SigningKeyIdentity(KeyPair keys) {
        this.keys = keys;
    }

    /**
     * The JVM's key. Quarkus loads test classes again for each application it starts, so this class (and its static
     * state) can exist several times in one JVM; the key lives in a system property so that every copy signs with the
     * key the running application was configured to trust.
     */
    static synchronized SigningKeyIdentity generate() {
        try {
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            String kept = System.getProperty(KEY_PROPERTY);
            if (kept == null) {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                KeyPair generated = generator.generateKeyPair();
                kept = Base64.getEncoder().encodeToString(generated.getPrivate().getEncoded()) + ":"
                        + Base64.getEncoder().encodeToString(generated.getPublic().getEncoded());
                System.setProperty(KEY_PROPERTY, kept);
            }
            String[] parts = kept.split(":");
            return new SigningKeyIdentity(new KeyPair(
                    rsa.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(parts[1]))),
                    rsa.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(parts[0])))));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no RSA on this JVM", e);
        }
    }

    @Override
    public Map<String, String> serviceConfig() {
        return Map.of(
                "quarkus.oidc.public-key", Base64.getEncoder().encodeToString(keys.getPublic().getEncoded()),
                "quarkus.oidc.token.issuer", ISSUER);
    }

    @Override
    public String description() {
        return "a signing key generated for this test JVM (issuer " + ISSUER + ")";
    }

    @Override
    protected String issue(String user, Set<String> roles, Set<String> groups) {
        return sign(AUDIENCE, user, roles, groups, Duration.ofHours(12));
    }

    @Override
    public String expiringToken(String user, Duration validFor, String... roles) {
        return sign(AUDIENCE, user, Set.of(roles), Set.of(), validFor);
    }

    @Override
    public String tokenForAudience(String audience, String user, String... roles) {
        return sign(audience, user, Set.of(roles), Set.of(), Duration.ofHours(12));
    }

    private String sign(String audience, String user, Set<String> roles, Set<String> groups, Duration validFor) {
        Instant now = Instant.now();
        var claims = Jwt.issuer(ISSUER).subject(user).claim("preferred_username", user)
                .claim("roles", new java.util.ArrayList<>(roles)).groups(new java.util.HashSet<>(groups))
                .issuedAt(now).expiresAt(now.plus(validFor));
        if (audience != null) {
            claims.audience(audience);
        }
        return claims.jws().keyId("batchyard-test").sign(keys.getPrivate());
    }
}
