import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createFolder, deleteFolder, getFolder, listFolders, renameFolder } from '#domain/folders/folders.js';
import { messageResponse, resourceParams } from '../../schemas.js';
import { createFolderBody, folderResponse, renameFolderBody } from './schemas.js';
import { folderView } from './view.js';

const idParams = resourceParams('id', 'Folder');
const tags = ['folders'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get('', {
    config: { auth: { scope: 'folders.read' } },
    schema: { tags, summary: 'List folders, newest first', response: { 200: z.object({ data: z.array(folderResponse) }) } },
    handler: async (request) => ({ data: (await listFolders(db, request.principal)).map((f) => folderView(f, 'list')) }),
  });

  app.get('/:id', {
    config: { auth: { scope: 'folders.read' } },
    schema: { tags, summary: 'Get a folder', params: idParams, response: { 200: z.object({ data: folderResponse }) } },
    handler: async (request) => ({ data: folderView(await getFolder(db, request.principal, request.params.id), 'list') }),
  });

  app.post('', {
    config: { auth: { scope: 'folders.create' }, audit: { entity: 'folder', action: 'create', id: 'response' } },
    schema: {
      tags,
      summary: 'Create a folder (answers with the bare folder, ISO timestamps)',
      body: createFolderBody,
      response: { 200: folderResponse },
    },
    handler: async (request) => folderView(await createFolder(db, request.principal, request.body.name), 'iso'),
  });

  app.put('/:id', {
    config: { auth: { scope: 'folders.update' }, audit: { entity: 'folder', action: 'rename' } },
    schema: {
      tags,
      summary: 'Rename a folder',
      params: idParams,
      body: renameFolderBody,
      response: { 200: z.object({ data: folderResponse }) },
    },
    handler: async (request) => ({
      data: folderView(await renameFolder(db, request.principal, request.params.id, request.body.name), 'list'),
    }),
  });

  app.delete('/:id', {
    config: { auth: { scope: 'folders.delete' }, audit: { entity: 'folder', action: 'delete' } },
    schema: { tags, summary: 'Delete a folder; its links stay, with folder_id null', params: idParams, response: { 200: messageResponse } },
    handler: async (request) => {
      await deleteFolder(db, request.principal.accountId, request.params.id);
      return { message: 'Folder deleted' };
    },
  });
};

export default routes;
