import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Record<string, unknown>;
type ChildOptions = { level?: string } & Record<string, unknown>;
/** What is read of the parent: pino's level check, which Fastify's logger type leaves out. */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled?(level: string): boolean; levels?: { values: Record<string, number> } };

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made only when it writes a line. pino's child() serialises (and redacts) its bindings
 * when it is called, and Fastify makes one for every request; at the levels a service runs at, most requests
 * write nothing, so most of those children were made for nothing (about 1.5 KB and 1.5 µs a request, the
 * answer-cache path's largest single cost after the socket). The child made on the first line written is
 * exactly the one Fastify would have made (same parent, bindings and options), so every line is as before:
 * the request id on it, secrets redacted.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  /** pino's check, answered from the parent's levels while no child is made (a route's own level counts). */
  isLevelEnabled(level: string): boolean {
    const made = this.made as ParentLogger | undefined;
    if (made?.isLevelEnabled) return made.isLevelEnabled(level);
    const values = this.parent.levels?.values;
    if (!values) return true;
    const wanted = values[level];
    const threshold = values[this.level];
    // `silent` (or a level pino does not know) has no value: nothing is enabled below it.
    return wanted !== undefined && threshold !== undefined && wanted >= threshold;
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  silent(): void {}

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  /** A line at `method`'s level, through the child (made now if it is the first): nothing below the level. */
  private write(method: Method, args: unknown[]): void {
    if (!this.isLevelEnabled(method)) return;
    const logger = this.logger();
    (logger[method] as (...parts: unknown[]) => void).apply(logger, args);
  }
}

/** Fastify's childLoggerFactory: each request's logger is a RequestLogger, its pino child made on first use. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new RequestLogger(logger as ParentLogger, bindings as Bindings, options as ChildOptions) as unknown as FastifyBaseLogger;
