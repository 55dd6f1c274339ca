package io.batchyard.teststack.identity;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * Makes every RestAssured call of a test act as an administrator unless it sets its own {@code Authorization} header
 * ({@code .auth().oauth2(token)}) or drops the filters ({@code given().noFilters()}) to call anonymously. Tests of
 * behaviour then read as before; tests of who may do what say so.
 */
public final class SignedInByDefault implements QuarkusTestBeforeEachCallback, Filter {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        install();
    }

    /** Installs the filter once on RestAssured's defaults; for tests that are not {@code @QuarkusTest}. */
    public static void install() {
        if (RestAssured.filters().stream().noneMatch(SignedInByDefault.class::isInstance)) {
            RestAssured.filters(new SignedInByDefault());
        }
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                           FilterContext ctx) {
        if (!request.getHeaders().hasHeaderWithName("Authorization")) {
            request.header("Authorization", "Bearer " + Identity.get().adminToken());
        }
        return ctx.next(request, response);
    }
}
