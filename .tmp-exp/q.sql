set work_mem = '32MB';
explain (analyze, buffers off, timing on)
with pay as (
  select pay.id, pay.pledge_id, pay.booked_on, pay.recorded_at, pay.credited_minor,
    p.currency, p.amount::bigint * 100 as pledged_minor, p.created_at, (case p.currency when 'USD' then 11::bigint else 1672::bigint end) as unit,
    (sum(pay.credited_minor) over (partition by pay.pledge_id order by pay.booked_on, pay.recorded_at, pay.id))::bigint as running
  from payments pay join pledges p on p.id = pay.pledge_id
  where pay.reversed_at is null and p.status in ('open', 'lapsed')),
sent as (select o.pledge_id, o.step, o.sent_at from outbox o where o.kind = 'reminder' and o.step is not null and o.sent_at is not null),
last as (select pay.id, coalesce(max(s.step), 0) as reminder from pay join sent s on s.pledge_id = pay.pledge_id and s.sent_at <= pay.recorded_at and (s.sent_at at time zone 'America/Jamaica')::date <= pay.booked_on group by pay.id),
each as (select pay.booked_on, pay.currency, pay.credited_minor,
  pay.running / pay.unit - (pay.running - pay.credited_minor) / pay.unit as containers,
  case when pay.running >= pay.pledged_minor and pay.running - pay.credited_minor < pay.pledged_minor then pay.booked_on - (pay.created_at at time zone 'America/Jamaica')::date end as done_days,
  coalesce(last.reminder, 0) as reminder from pay left join last on last.id = pay.id)
select grouping(booked_on), grouping(reminder), booked_on::text, reminder, done_days, currency, count(*), sum(credited_minor), sum(containers)
from each group by grouping sets ((booked_on, currency), (reminder, currency), (done_days, currency));
