; global memory through addresses: per index point i (one i32 element of
; a each), gen_addr of a's element i and of out's element i (llvm.tpc.gen.addr),
; a scalar ld_g of a[i], st_g of a[i] * 3 + 1 to out[i]; a vector ld_g at b's
; element 64 j (j = i mod 4), which broadcasts that one element to every lane,
; stored with st_tnsr to out2.
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %c = insertelement <5 x i32> zeroinitializer, i32 %i, i32 0
  %pa = call i8 addrspace(3)* @llvm.tpc.gen.addr(<5 x i32> %c, i8 0, i32 0, i8 addrspace(3)* undef, i1 true, i1 false)
  %po = call i8 addrspace(3)* @llvm.tpc.gen.addr(<5 x i32> %c, i8 2, i32 0, i8 addrspace(3)* undef, i1 true, i1 false)
  %v = call i32 @llvm.tpc.ld.g.i32.i1(i8 addrspace(3)* %pa, i32 0, i32 undef, i1 true, i1 false)
  %v3 = mul i32 %v, 3
  %w = add i32 %v3, 1
  call void @llvm.tpc.st.g.i32(i8 addrspace(3)* %po, i32 %w, i32 0, i1 true, i1 false)
  %j = and i32 %i, 3
  %x = mul i32 %j, 64
  %cb = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %pb = call i8 addrspace(3)* @llvm.tpc.gen.addr(<5 x i32> %cb, i8 1, i32 0, i8 addrspace(3)* undef, i1 true, i1 false)
  %vb = call <64 x i32> @llvm.tpc.ld.g.v64i32.i1(i8 addrspace(3)* %pb, i32 0, <64 x i32> undef, i1 true, i1 false)
  %xo = mul i32 %i, 64
  %co = insertelement <5 x i32> zeroinitializer, i32 %xo, i32 0
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %co, i8 3, <64 x i32> %vb, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare i8 addrspace(3)* @llvm.tpc.gen.addr(<5 x i32>, i8, i32, i8 addrspace(3)*, i1, i1)
declare i32 @llvm.tpc.ld.g.i32.i1(i8 addrspace(3)*, i32, i32, i1, i1)
declare void @llvm.tpc.st.g.i32(i8 addrspace(3)*, i32, i32, i1, i1)
declare <64 x i32> @llvm.tpc.ld.g.v64i32.i1(i8 addrspace(3)*, i32, <64 x i32>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
