package io.batchyard.api.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.api.ApiException;
import io.batchyard.api.CommonErrors;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one rule for application objects: hidden without READ, 403 code 14 with READ but not the permission. */
class ApplicationGuardTest {

    /** Owner ana 7, group etl 4, others 0. */
    private static final Optional<ApplicationAccess> TEAM =
            Optional.of(new ApplicationAccess(5, "ana", "etl", 7, 4, 0));
    private static final Caller OWNER = new Caller("ana", Set.of(), false);
    private static final Caller MEMBER = new Caller("bo", Set.of("etl"), false);
    private static final Caller STRANGER = new Caller("cy", Set.of("other"), false);
    private static final Caller ADMIN = new Caller("root", Set.of(), true);

    private static ApiException notFound() {
        return CommonErrors.NOT_FOUND.exception("process 9 does not exist");
    }

    @Test
    void aCallerWithoutReadIsToldTheObjectDoesNotExist() {
        assertThatThrownBy(() -> ApplicationGuard.require(STRANGER, TEAM, Permission.WRITE, "process 9",
                ApplicationGuardTest::notFound))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.getMessage()).doesNotContain("permission");
                });
        assertThat(ApplicationGuard.canRead(STRANGER, TEAM)).isFalse();
    }

    @Test
    void aReaderWithoutTheNeededBitGetsCode14NamingTheObject() {
        assertThatThrownBy(() -> ApplicationGuard.require(MEMBER, TEAM, Permission.EXECUTE, "process 9",
                ApplicationGuardTest::notFound))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.code()).isEqualTo(14);
                    assertThat(e.getMessage()).contains("process 9");
                });
        ApplicationGuard.require(MEMBER, TEAM, Permission.READ, "process 9", ApplicationGuardTest::notFound);
    }

    @Test
    void ownersAndAdministratorsPass() {
        for (Permission p : Permission.values()) {
            ApplicationGuard.require(OWNER, TEAM, p, "process 9", ApplicationGuardTest::notFound);
            ApplicationGuard.require(ADMIN, TEAM, p, "process 9", ApplicationGuardTest::notFound);
        }
        ApplicationGuard.requireOwner(OWNER, TEAM, "application 5", ApplicationGuardTest::notFound);
        assertThatThrownBy(() -> ApplicationGuard.requireOwner(MEMBER, TEAM, "application 5",
                ApplicationGuardTest::notFound)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo(14));
    }

    @Test
    void unknownPermissionsAreReadableByAdministratorsOnly() {
        assertThat(ApplicationGuard.canRead(OWNER, Optional.empty())).isFalse();
        assertThat(ApplicationGuard.canRead(ADMIN, Optional.empty())).isTrue();
    }
}
