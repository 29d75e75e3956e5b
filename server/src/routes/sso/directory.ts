import type { FastifyInstance } from 'fastify'
import {
  getRoleRights,
  listDepartments,
  listHospitals,
  pageHospitals,
} from '@contract/sso/directory'
import { isCertifiedExpert } from '../../domain/experts'
import * as directory from '../../domain/hospitals/directory'
import { currentUser } from '../../http/auth'
import { route } from '../../http/route'

/** Sign-on service, directory family: hospitals, departments and the role-right tree. */
export default async function ssoDirectoryRoutes(app: FastifyInstance): Promise<void> {
  route(app, listHospitals, async ({ city }) => directory.listHospitals(app.db, { city }))

  route(app, pageHospitals, async (input) => directory.pageHospitals(app.db, input))

  route(app, listDepartments, async ({ hospitalId }) =>
    directory.listDepartments(app.db, hospitalId),
  )

  route(app, getRoleRights, async (_input, { request }) => {
    const { id, role } = currentUser(request)
    const certifiedExpert = await isCertifiedExpert(app.db, id)
    return { role, tree: directory.roleRights(role, { certifiedExpert }) }
  })
}
