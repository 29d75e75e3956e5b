import assert from 'node:assert/strict'
import { test } from 'node:test'
import { HospitalRefSchema, HospitalSchema } from '@contract/hospitals'
import { ImageHospitalSchema } from '@contract/image/areas'
import { OperatorHospitalSchema } from '@contract/main/operator'
import { HospitalDetailSchema, MyHospitalSchema } from '@contract/main/records'
import { HospitalSchema as DirectoryHospitalSchema } from '@contract/sso/directory'
import { addHospital, hospitalColumns, toHospital } from '../../../src/domain/hospitals'
import { openTestDatabase } from '../../helpers'

const T0 = new Date('2026-11-23T08:00:00.000Z')

const ANSWERS = {
  directory: DirectoryHospitalSchema,
  image: ImageHospitalSchema,
  mine: MyHospitalSchema,
  detail: HospitalDetailSchema,
  operator: OperatorHospitalSchema,
  ref: HospitalRefSchema,
}

const baseFields = Object.keys(HospitalSchema.shape)
const hospitalFieldsOf = (shape: object) =>
  Object.keys(shape).filter((field) => baseFields.includes(field))

test('every hospital answer takes its hospital fields from HospitalSchema, not a copy', () => {
  const base: Record<string, unknown> = HospitalSchema.shape
  for (const [name, schema] of Object.entries(ANSWERS)) {
    const shape: Record<string, unknown> = schema.shape
    for (const field of hospitalFieldsOf(shape)) {
      const own = shape[field]
      // 我的医院 alone lets other servers leave the coordinates out.
      const expected =
        name === 'mine' && (field === 'latitude' || field === 'longitude')
          ? (own as { _zod: { def: { innerType: unknown } } })._zod.def.innerType
          : own
      assert.equal(expected, base[field], `${name}.${field}`)
    }
  }
})

test('toHospital answers exactly the fields each schema names, read the same way', async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const { db } = handle
  const added = await addHospital(
    db,
    { name: '示例医院', level: '三级甲等', regionCode: '110101', aiReporting: true, demo: true },
    T0,
  )
  await db
    .updateTable('hospitals')
    .set({ latitude: 39.9, longitude: 116.4 })
    .where('id', '=', added.id)
    .execute()
  const row = await db
    .selectFrom('hospitals')
    .selectAll()
    .where('id', '=', added.id)
    .executeTakeFirstOrThrow()
  for (const [name, schema] of Object.entries(ANSWERS)) {
    const hospital = toHospital(row, schema)
    assert.deepEqual(Object.keys(hospital).sort(), hospitalFieldsOf(schema.shape).sort(), name)
    const full = toHospital(row, HospitalSchema)
    for (const [field, value] of Object.entries(hospital)) {
      assert.deepEqual(value, full[field as keyof typeof full], `${name}.${field}`)
    }
  }
  assert.deepEqual(toHospital(row, HospitalSchema), {
    id: added.id,
    name: '示例医院',
    level: '三级甲等',
    province: '',
    city: '',
    address: '',
    regionCode: '110101',
    regionName: null,
    aiReporting: true,
    demo: true,
    latitude: 39.9,
    longitude: 116.4,
  })
})

test("hospitalColumns names the columns an answer's hospital fields are read from", () => {
  assert.deepEqual(hospitalColumns(MyHospitalSchema), [
    'hospitals.id',
    'hospitals.name',
    'hospitals.level',
    'hospitals.province',
    'hospitals.city',
    'hospitals.address',
    'hospitals.latitude',
    'hospitals.longitude',
  ])
})
