# The web application of the `app` workload's Ruby rows (app = ruby), as
# gVisor's images/benchmarks/ruby: on start it stores 100 random 1 KiB
# alphanumeric texts under the keys 0..99 of a redis-server; each GET
# then reads five random keys and answers with a page an ERB template
# renders from them. A plain Rack application for puma (Debian's puma and
# ruby-redis): no sinatra.
#
#   puma -b tcp://127.0.0.1:9292 -w WORKERS -t 20:20 ruby-server.ru
#   (REDIS_PORT in the environment, default 6379)
require "erb"
require "securerandom"
require "redis"

KEYS = 100
TEXT_LEN = 1024
PER_PAGE = 5
PAGE = ERB.new(<<~HTML)
  <!DOCTYPE html>
  <html>
  <body>
  <% text.each do |t| %>    <p><%= ERB::Util.html_escape(t) %></p>
  <% end %></body>
  </html>
HTML

redis_port = Integer(ENV.fetch("REDIS_PORT", "6379"))
seed = Redis.new(host: "127.0.0.1", port: redis_port)
KEYS.times { |i| seed.set(i, SecureRandom.alphanumeric(TEXT_LEN)) }
seed.close

# One connection per puma thread (puma forks its workers after this file
# is loaded: a connection made here would be shared across processes).
conn = lambda do
  Thread.current[:abbench_redis] ||= Redis.new(host: "127.0.0.1",
                                               port: redis_port)
end

run(lambda do |_env|
  texts = Array.new(PER_PAGE) { conn.call.get(rand(0...KEYS)) }
  if texts.any?(&:nil?)
    next [500, { "Content-Type" => "text/plain" },
          ["a key is missing from redis\n"]]
  end
  body = PAGE.result_with_hash(text: texts)
  [200, { "Content-Type" => "text/html;charset=utf-8",
          "Content-Length" => body.bytesize.to_s }, [body]]
end)
