/**
 * 'Personalize Your Experience' (SPEC §2 Role-selection modal, §4 Role), controlled by the engine's roleModal
 * machine: the engine hears 'user.loaded' for the current user and opens it for a user without a role who has
 * not closed it before; a pick goes to the modal's machine, which sends PATCH /users/me/role through the engine's
 * api port, and a failure is logged ('Failed to update user role') with the modal left open. A saved role
 * refreshes the cached user.
 *
 * A lazy chunk (it carries the engine); `UserRoleModal` renders it, in the main layout and the reader's, only for a
 * signed-in user.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import type { CurrentUser } from '../../../domain/schemas';
import { connectRoleModal } from '../../../machines/roleModal';
import { CloseIcon } from '../../components/Icons';
import { buttonStyles, modalStyles } from '../../components/styles';
import { useChildSend, useEngine, useEngineSend } from '../../engine/useEngine';
import { queryKeys } from '../../../api/queryKeys';

export default function RoleModal({ user }: { user: CurrentUser }) {
  const send = useEngineSend();
  const queryClient = useQueryClient();
  const snapshot = useEngine((s) => s.roleModal, Object.is);
  const role = connectRoleModal(snapshot, useChildSend('roleModal'));
  const features = user.features.join(',');

  useEffect(() => {
    send({ type: 'user.loaded', hasRole: user.role !== null, features: features ? features.split(',') : [] });
  }, [send, user.id, user.role, features]);

  // saving → hidden means the role was saved: fetch the user again so the menu shows it.
  const wasSaving = useRef(false);
  useEffect(() => {
    if (wasSaving.current && !role.isSaving && !role.isOpen) void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
    wasSaving.current = role.isSaving;
  }, [role.isSaving, role.isOpen, queryClient]);

  return (
    <ModalOverlay
      isOpen={role.isOpen}
      onOpenChange={(open) => !open && !role.isSaving && role.dismiss()}
      isDismissable={!role.isSaving}
      className={modalStyles.overlay}
    >
      <Modal className={`max-w-md ${modalStyles.panel}`}>
        <Dialog className="relative outline-none">
          <Button
            aria-label="Close"
            isDisabled={role.isSaving}
            onPress={role.dismiss}
            className="absolute -top-2 -right-2 rounded-lg p-1.5 text-ink-muted data-[hovered]:bg-primary-50 data-[hovered]:text-primary-900"
          >
            <CloseIcon size={18} />
          </Button>
          <Heading slot="title" className="pe-8 text-2xl font-semibold">
            {role.title}
          </Heading>
          <p className="mt-3 text-ink-muted">{role.prompt}</p>
          <div className="mt-8 grid gap-3 sm:grid-cols-2">
            {role.options.map((option) => (
              <Button
                key={option.role}
                isDisabled={role.isSaving}
                onPress={() => role.pick(option.role)}
                className={`${option.role === 'TEACHER' ? buttonStyles.primary : buttonStyles.secondary} py-3 text-base`}
              >
                {option.label}
              </Button>
            ))}
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
