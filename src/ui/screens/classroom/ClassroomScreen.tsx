/**
 * The Classroom Library (SPEC §2 Classroom Library, §4 Title visibility, §6 Roles): heading, search and sort, the
 * '{n} titles available' count and cards to the publication pages.
 * - A teacher sees their ASSIGNED titles (GET /publications?filter=assigned), the 'Teachers Only' banner, the
 *   'Class activity' panel and an eye toggle per card; hiding a title takes it off the list.
 * - A student (class code, no account) sees the teacher's ASSIGNED titles (GET /publications with X-Group-Code).
 * - A visitor without a code gets the class-code form; a signed-in reader is pointed to the Free Library.
 * Empty: 'No titles visible to students', with 'Go to Free Library to make titles visible' for teachers and 'Ask
 * your teacher to add titles to the Classroom Library' for students.
 */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Spinner } from '../../components/Spinner';
import { buttonStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { useCurrentUser } from '../auth/session';
import { CatalogResults, CatalogSummary, CatalogToolbar, useReaderFeatures } from '../catalog/CatalogScreen';
import { Pagination } from '../catalog/Pagination';
import { useCatalog } from '../catalog/useCatalog';
import { ClassCodeForm, ENTER_CLASS_CODE } from './ClassCodeForm';
import { useClassCode } from './classCodeState';
import { CLASSROOM_TEXTS, classroomViewer, type ClassroomViewer, titlesAvailable } from './classroom';
import { TeachersOnlyBanner } from './TeacherBanners';
import { ClassActivityPanel } from './ClassActivityPanel';
import { paths } from '../../../domain/routes';

export function ClassroomScreen() {
  useDocumentTitle(CLASSROOM_TEXTS.heading);
  const { data: user, isPending } = useCurrentUser();
  const classCode = useClassCode();
  const viewer = classroomViewer(user, classCode);

  return (
    <div>
      {isPending ? (
        <ClassroomHeader />
      ) : viewer.kind === 'teacher' || viewer.kind === 'student' ? (
        <ClassroomList viewer={viewer} />
      ) : (
        <>
          <ClassroomHeader />
          <ClassroomEntry viewer={viewer} />
        </>
      )}
    </div>
  );
}

function ClassroomHeader({ children }: { children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{CLASSROOM_TEXTS.heading}</h1>
        <p className="mt-2 max-w-prose text-ink-muted">The titles a teacher has chosen for their class.</p>
      </div>
      {children}
    </div>
  );
}

function ClassroomList({ viewer }: { viewer: Extract<ClassroomViewer, { kind: 'teacher' | 'student' }> }) {
  const teacher = viewer.kind === 'teacher';
  const model = useCatalog(
    teacher
      ? { path: paths.classroomCatalog, fixedFilter: 'assigned', viewer: { userId: viewer.userId } }
      : { path: paths.classroomCatalog, viewer: { groupCode: viewer.groupCode } },
  );
  const features = useReaderFeatures();
  const empty = (
    <div className="rounded-2xl border border-dashed border-line-strong px-6 py-16 text-center">
      <h2 className="text-xl font-semibold">{CLASSROOM_TEXTS.noVisibleTitles}</h2>
      {teacher ? (
        <Link href={paths.catalog} className={`${buttonStyles.primary} mt-6`}>
          {CLASSROOM_TEXTS.teacherEmpty}
        </Link>
      ) : (
        <p className="mt-2 text-ink-muted">{CLASSROOM_TEXTS.studentEmpty}</p>
      )}
    </div>
  );
  return (
    <>
      <ClassroomHeader>
        <CatalogToolbar model={model} />
      </ClassroomHeader>
      {teacher && <TeachersOnlyBanner />}
      {teacher && <ClassActivityPanel userId={viewer.userId} />}
      <CatalogSummary model={model} countText={titlesAvailable} />
      <CatalogResults model={model} cards={{ showEye: teacher, features }} empty={empty} />
      {model.status === 'ready' && <Pagination model={model} />}
    </>
  );
}

function ClassroomEntry({ viewer }: { viewer: Extract<ClassroomViewer, { kind: 'verifying' | 'visitor' | 'reader' }> }) {
  if (viewer.kind === 'verifying') {
    return (
      <div className="mt-12 grid place-items-center">
        <Spinner label="Checking the class code…" />
      </div>
    );
  }
  if (viewer.kind === 'reader') {
    return (
      <div className="mt-8 max-w-xl rounded-2xl border border-line bg-surface p-6">
        <p className="text-ink-muted">
          The Classroom Library lists the titles a teacher shares with their class. Teachers with a school license curate it
          from the Free Library.
        </p>
        <Link href={paths.catalog} className={`${buttonStyles.primary} mt-5`}>
          Go to Free Library
        </Link>
      </div>
    );
  }
  return (
    <section aria-labelledby="class-code-heading" className="mt-8 max-w-sm rounded-2xl border border-line bg-surface p-6">
      <h2 id="class-code-heading" className="mb-4 text-xl font-semibold">
        {ENTER_CLASS_CODE}
      </h2>
      <ClassCodeForm />
    </section>
  );
}
