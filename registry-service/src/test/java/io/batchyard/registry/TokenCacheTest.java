package io.batchyard.registry;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.api.access.VerifiedTokens;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.PrometheusText;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * A bearer token that verified once is not verified again on every call, and that changes nothing a caller sees: its
 * roles still decide, it stops working when it expires, and a token altered in one character is checked afresh.
 */
@RegistryTest
class TokenCacheTest {

    @Inject
    VerifiedTokens tokens;

    @Test
    void aVerifiedTokenIsRememberedAndItsRolesStillDecide() {
        String viewer = Identity.get().expiringToken("viewer-" + UUID.randomUUID(), Duration.ofMinutes(10), "viewer");
        assertThat(tokens.remembers(viewer)).isFalse();
        given().noFilters().auth().oauth2(viewer).get("/applications").then().statusCode(200);
        assertThat(tokens.remembers(viewer)).as("verified once, remembered").isTrue();
        double hitsBefore = cacheCount("hit");
        given().noFilters().auth().oauth2(viewer).get("/applications").then().statusCode(200);
        assertThat(cacheCount("hit") - hitsBefore).as("the second call took the remembered identity").isEqualTo(1);
        // remembered, and still only a viewer: creating is an operation for developers
        given().noFilters().auth().oauth2(viewer).contentType(ContentType.JSON)
                .body(Map.of("name", Fixtures.unique("cache"), "description", "d", "owner", "o"))
                .post("/applications").then().statusCode(403).body("code", equalTo(13));
    }

    /** The service's own count of calls whose token was (hit) or was not (miss) found verified, as it exports it. */
    private static double cacheCount(String outcome) {
        String metrics = Management.ofApplicationUnderTest().metricsText();
        return PrometheusText.value(metrics, "batchyard_auth_token_cache_total", "outcome", outcome);
    }

    @Test
    void aTokenStopsWorkingWhenItExpiresThoughItVerifiedBefore() throws InterruptedException {
        Duration life = Duration.ofSeconds(6);
        Instant expires = Instant.now().plus(life);
        String token = Identity.get().expiringToken("short-" + UUID.randomUUID(), life, "viewer");
        given().noFilters().auth().oauth2(token).get("/applications").then().statusCode(200);
        assertThat(tokens.remembers(token)).isTrue();
        given().noFilters().auth().oauth2(token).get("/applications").then().statusCode(200);
        // JWT expiry has whole-second precision; a second past it is past it wherever it was rounded
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), expires).toMillis()) + 2_000);
        given().noFilters().auth().oauth2(token).get("/applications").then().statusCode(401).body("code", equalTo(12));
    }

    @Test
    void aTokenAlteredInOneCharacterIsVerifiedAfresh() {
        String token = Identity.get().expiringToken("alter-" + UUID.randomUUID(), Duration.ofMinutes(10), "admin");
        given().noFilters().auth().oauth2(token).get("/applications").then().statusCode(200);
        int last = token.length() - 2; // inside the signature, not its final padding bits
        String altered = token.substring(0, last) + (token.charAt(last) == 'A' ? 'B' : 'A') + token.substring(last + 1);
        given().noFilters().auth().oauth2(altered).get("/applications").then().statusCode(401).body("code", equalTo(12));
        assertThat(tokens.remembers(altered)).isFalse();
        given().noFilters().auth().oauth2(token).get("/applications").then().statusCode(200);
    }
}
