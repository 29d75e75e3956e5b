import { type Hospital, HospitalSchema } from '@contract/hospitals'
import type { HospitalsTable } from '../../db/schema'

/*
 * The one mapping of a `hospitals` row to the hospital the product shows (@contract/hospitals). Each
 * answer passes its own contract schema, a pick of HospitalSchema, and gets exactly the fields that
 * schema names, in HospitalSchema's order; so an answer cannot gain or lose a field without its
 * contract changing, and a field is read from its column the same way in every answer.
 */

type Field = keyof Hospital

/** The column each field is read from (the row needs only the columns of the fields asked for). */
const COLUMN_OF = {
  id: 'id',
  name: 'name',
  level: 'level',
  province: 'province',
  city: 'city',
  address: 'address',
  regionCode: 'region_code',
  regionName: 'region_name',
  aiReporting: 'ai_reporting',
  demo: 'demo',
  latitude: 'latitude',
  longitude: 'longitude',
} as const satisfies { [K in Field]: keyof HospitalsTable }

type ColumnOf<F extends Field> = (typeof COLUMN_OF)[F]

// PostgreSQL may hand numbers back as text (and the flags as 0/1 numbers on both databases).
const flag = (value: number) => Number(value) === 1
const coordinate = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Number(value)

const READ: { [F in Field]: (row: Pick<HospitalsTable, ColumnOf<F>>) => Hospital[F] } = {
  id: (row) => row.id,
  name: (row) => row.name,
  level: (row) => row.level,
  province: (row) => row.province,
  city: (row) => row.city,
  address: (row) => row.address,
  regionCode: (row) => row.region_code,
  regionName: (row) => row.region_name,
  aiReporting: (row) => flag(row.ai_reporting),
  demo: (row) => flag(row.demo),
  latitude: (row) => coordinate(row.latitude),
  longitude: (row) => coordinate(row.longitude),
}

const FIELDS = Object.keys(HospitalSchema.shape) as Field[]

/** An answer's schema: a pick of HospitalSchema, maybe extended with fields that are not the row's. */
interface HospitalAnswer {
  readonly shape: object
}

/** The hospital fields an answer's schema names. */
export type HospitalFieldsOf<S extends HospitalAnswer> = Extract<keyof S['shape'], Field>

/** A row with the columns an answer's hospital fields are read from. */
export type HospitalRowFor<S extends HospitalAnswer> = Pick<
  HospitalsTable,
  ColumnOf<HospitalFieldsOf<S>>
>

/**
 * The hospital fields of `answer` read from `row`; the answer's other fields (counts, departments,
 * ...) are the caller's to add.
 */
export function toHospital<S extends HospitalAnswer>(
  row: HospitalRowFor<S>,
  answer: S,
): Pick<Hospital, HospitalFieldsOf<S>> {
  const hospital: Partial<Record<Field, unknown>> = {}
  for (const field of FIELDS) {
    if (!(field in answer.shape)) continue
    const read = READ[field] as (row: HospitalRowFor<S>) => unknown
    hospital[field] = read(row)
  }
  return hospital as Pick<Hospital, HospitalFieldsOf<S>>
}

/**
 * The `hospitals.<column>` references an answer's hospital fields need, for a query that selects
 * (and groups by) them next to other tables' columns.
 */
export function hospitalColumns<S extends HospitalAnswer>(
  answer: S,
): `hospitals.${ColumnOf<HospitalFieldsOf<S>>}`[] {
  return FIELDS.filter((field) => field in answer.shape).map(
    (field) => `hospitals.${COLUMN_OF[field]}` as `hospitals.${ColumnOf<HospitalFieldsOf<S>>}`,
  )
}
