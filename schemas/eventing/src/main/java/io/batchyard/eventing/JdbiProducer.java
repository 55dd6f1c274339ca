package io.batchyard.eventing;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;

/** One Jdbi per service, over the Agroal pool that Flyway also migrates. */
public class JdbiProducer {

    @Produces
    @Singleton
    Jdbi jdbi(AgroalDataSource dataSource) {
        return Jdbi.create(dataSource).installPlugin(new PostgresPlugin());
    }
}
