package it.mongoredact;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Spring Boot application as a user writes it (auto-configuration only, no code of ours), started against a fresh embedded
 * server. Closing it closes the context (thus the client), then shuts the server down.
 */
final class RunningApp implements AutoCloseable {

    /** The application: nothing but auto-configuration. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class UserApplication {
    }

    final MongoServer server;
    final ConfigurableApplicationContext context;

    private RunningApp(final MongoServer server, final ConfigurableApplicationContext context) {
        this.server = server;
        this.context = context;
    }

    /** A sync application: the reactive client's auto-configuration is left out, as in an app with the sync starter. */
    static RunningApp sync(final List<Class<?>> userConfiguration, final String... properties) {
        return start(userConfiguration, BootLine.REACTIVE_AUTO_CONFIGURATIONS, properties);
    }

    /** A reactive application: the sync client's auto-configuration is left out, as in an app with the reactive starter. */
    static RunningApp reactive(final List<Class<?>> userConfiguration, final String... properties) {
        return start(userConfiguration, BootLine.SYNC_AUTO_CONFIGURATIONS, properties);
    }

    private static RunningApp start(final List<Class<?>> userConfiguration, final String exclude, final String... properties) {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        InetSocketAddress address = server.getLocalAddress();
        try {
            List<Class<?>> sources = new ArrayList<>();
            sources.add(UserApplication.class);
            sources.addAll(userConfiguration);
            List<String> all = new ArrayList<>();
            all.add(BootLine.URI_PROPERTY + "=mongodb://127.0.0.1:" + address.getPort() + "/test");
            all.add("spring.autoconfigure.exclude=" + exclude);
            all.addAll(Arrays.asList(properties));
            ConfigurableApplicationContext context = new SpringApplicationBuilder(sources.toArray(new Class<?>[0]))
                    .web(WebApplicationType.NONE)
                    .properties(all.toArray(new String[0]))
                    .run();
            return new RunningApp(server, context);
        } catch (RuntimeException | Error e) {
            server.shutdownNow();
            throw e;
        }
    }

    <T> T bean(final Class<T> type) {
        return context.getBean(type);
    }

    /** How many commands {@code mongodb.driver.commands} counted, over all its tags. */
    long timerCount() {
        long count = 0;
        for (Timer timer : bean(MeterRegistry.class).find("mongodb.driver.commands").timers()) {
            count += timer.count();
        }
        return count;
    }

    @Override
    public void close() {
        try {
            context.close();
        } finally {
            server.shutdownNow();
        }
    }
}
